package Blind::Admin;
# Tenant-level E14 endpoints: app config, users, attributes, tenant settings, integrations,
# GitHub discovery, notifications, embed tenants, dbt sync.
use strict;
use utf8;
use warnings;
use Blind::Util;
use Blind::Store;
use Blind::App;

sub S_ { $Blind::Store::S }
*dep = \&Blind::App::dep;
*path_int = \&Blind::App::path_int;
sub wrap { return { data => $_[0] } }
sub created { my ($data, $loc) = @_; return [ 201, wrap($data), [ Location => $loc ] ] }

Blind::App::route(GET => '/api/v1/app-config', sub {
    my $c = shift;
    my $ac = clone_data(S_->{app_config});
    $ac->{creatorMode} = B($c->{user}{creatorMode});
    return [ 200, wrap($ac) ];
}, summary => 'App configuration', tag => 'settings', resp => 'AppConfigWrapped');

# ---------- tenant settings ----------
my %TS = (auditLogEnabled => 'bool', defaultTimezone => 'str', allowPublicSharing => 'bool', sessionTimeoutMinutes => 'int');
Blind::App::route(GET => '/api/v1/tenant/settings', sub { return [ 200, wrap(S_->{tenant_settings}) ] },
    summary => 'Tenant settings', tag => 'settings', resp => 'Wrapped');
Blind::App::route(PUT => '/api/v1/tenant/settings', sub {
    my $c = shift;
    need_role($c->{user}, 'ADMIN', 'tenant settings');
    my $bd = req_obj($c->{body});
    my %set;
    for my $k (keys %$bd) {
        my $t = $TS{$k} or err(400, "unknown or read-only tenant setting '$k'");
        if ($t eq 'bool') { opt_bool($bd, $k); $set{$k} = B($bd->{$k}) }
        elsif ($t eq 'int') { $set{$k} = opt_int($bd, $k, min => 5, max => 43200) }
        else { $set{$k} = opt_str($bd, $k, max => 64) }
    }
    S_->{tenant_settings}{$_} = $set{$_} for keys %set;
    return [ 200, wrap(S_->{tenant_settings}) ];
}, summary => 'Update tenant settings', tag => 'settings', body => 'TenantSettings', resp => 'Wrapped');

# ---------- users ----------
my %ROLES = map { $_ => 1 } qw(ADMIN DEVELOPER AI_BI_USER VIEWER);
sub ser_user {
    my $u = shift;
    return { id => I($u->{id}), email => S($u->{email}), firstName => S($u->{firstName}), lastName => S($u->{lastName}),
             role => S($u->{role}), status => $u->{active} ? 'ACTIVE' : 'DEACTIVATED', permissions => [ map { S($_) } @{ $u->{permissions} } ],
             createdAt => ts_iso($u->{createdAt}) };
}
sub user_of {
    my ($c) = @_;
    my $id = path_int($c, 'id', 'user');
    my $u = S_->{users}{$id} or err(404, "user $id not found");
    return $u;
}

Blind::App::route(GET => '/api/v1/users', sub {
    my $c = shift;
    my @u = sort { $a->{id} <=> $b->{id} } grep { !$_->{deleted} } values %{ S_->{users} };
    if (defined(my $s = $c->{q}{search})) { $s = lc $s; @u = grep { index(lc($_->{email} . ' ' . ($_->{firstName} // '') . ' ' . ($_->{lastName} // '')), $s) >= 0 } @u }
    my ($page, $pi) = cursor_page(\@u, $c->{q});
    my @items = map { ser_user($_) } @$page;
    return [ 200, { items => \@items, data => \@items, pageInfo => $pi } ];
}, summary => 'List users', tag => 'users', params => [qw(search first after)], resp => 'GenericList');

Blind::App::route(GET => '/api/v1/users/{id}', sub {
    my $c = shift;
    my $u = user_of($c);
    err(404, "user $u->{id} not found") if $u->{deleted};
    return [ 200, wrap(ser_user($u)) ];
}, summary => 'Get a user', tag => 'users', resp => 'Wrapped');

Blind::App::route(POST => '/api/v1/users', sub {
    my $c = shift;
    need_role($c->{user}, 'ADMIN', 'user administration');
    my $bd = req_obj($c->{body});
    my $email = req_str($bd, 'email', max => 320);
    err(400, 'email is not a valid address') unless $email =~ /^[^@\s]+@[^@\s]+\.[^@\s]+\z/;
    err(409, "a user with email $email already exists") if grep { !$_->{deleted} && lc $_->{email} eq lc $email } values %{ S_->{users} };
    my $role = $bd->{role} // 'VIEWER';
    err(400, 'role must be one of ADMIN, DEVELOPER, AI_BI_USER, VIEWER') unless is_str($role) && $ROLES{$role};
    my $id = Blind::Store::next_id('user');
    my $u = S_->{users}{$id} = { id => $id, email => $email, firstName => opt_str($bd, 'firstName', nullable => 1, max => 200),
        lastName => opt_str($bd, 'lastName', nullable => 1, max => 200), role => $role, permissions => [], active => 1, createdAt => time() };
    return created(ser_user($u), "/api/v1/users/$id");
}, summary => 'Create a user', tag => 'users', body => 'UserCreate', ok => 201, resp => 'Wrapped');

Blind::App::route(PUT => '/api/v1/users/{id}', sub {
    my $c = shift;
    need_role($c->{user}, 'ADMIN', 'user administration');
    my $u = user_of($c);
    err(404, "user $u->{id} not found") if $u->{deleted};
    my $bd = req_obj($c->{body});
    if (exists $bd->{role}) { err(400, 'role must be one of ADMIN, DEVELOPER, AI_BI_USER, VIEWER') unless is_str($bd->{role}) && $ROLES{ $bd->{role} } }
    my %set;
    $set{firstName} = opt_str($bd, 'firstName', nullable => 1, max => 200) if exists $bd->{firstName};
    $set{lastName} = opt_str($bd, 'lastName', nullable => 1, max => 200) if exists $bd->{lastName};
    $set{role} = $bd->{role} if exists $bd->{role};
    if (exists $bd->{status}) { err(400, 'status must be ACTIVE or DEACTIVATED') unless is_str($bd->{status}) && $bd->{status} =~ /^(ACTIVE|DEACTIVATED)\z/; $set{active} = $bd->{status} eq 'ACTIVE' ? 1 : 0 }
    $u->{$_} = $set{$_} for keys %set;
    return [ 200, wrap(ser_user($u)) ];
}, summary => 'Update a user', tag => 'users', body => 'UserUpdate', resp => 'Wrapped');

Blind::App::route(POST => '/api/v1/users/bulk', sub {
    my $c = shift;
    need_role($c->{user}, 'ADMIN', 'user administration');
    my $bd = req_obj($c->{body});
    my $act = $bd->{action};
    err(400, 'action must be DEACTIVATE, ACTIVATE or DELETE') unless is_str($act) && $act =~ /^(DEACTIVATE|ACTIVATE|DELETE)\z/;
    err(400, "field 'userIds' must be a non-empty array of integers") unless is_arr($bd->{userIds}) && @{ $bd->{userIds} } && !grep { !is_int($_) } @{ $bd->{userIds} };
    err(400, 'at most 100 users per request') if @{ $bd->{userIds} } > 100;
    my (@ok, @failed, %seen);
    for my $id (grep { !$seen{$_}++ } @{ $bd->{userIds} }) {
        my $u = S_->{users}{$id};
        if (!$u || $u->{deleted}) { push @failed, { id => I($id), error => { message => 'user not found', status => 404 } }; next }
        if ($u->{id} == $c->{user}{id}) { push @failed, { id => I($id), error => { message => 'you cannot change your own account in bulk', status => 400 } }; next }
        if ($act eq 'DELETE') { $u->{deleted} = 1; $u->{active} = 0 } else { $u->{active} = $act eq 'ACTIVATE' ? 1 : 0 }
        push @ok, I($id);
    }
    return [ 200, { succeeded => \@ok, failed => \@failed } ];
}, summary => 'Bulk user actions', tag => 'users', body => 'UserBulk', resp => 'UserBulkResponse');

# ---------- user attributes ----------
my %ATYPES = (string => sub { is_str($_[0]) }, number => sub { is_num($_[0]) }, boolean => sub { is_bool($_[0]) },
              string_array => sub { is_arr($_[0]) && !grep { !is_str($_) } @{ $_[0] } },
              number_array => sub { is_arr($_[0]) && !grep { !is_num($_) } @{ $_[0] } });
sub ser_attr { my $a = shift; return { id => I($a->{id}), name => S($a->{name}), type => S($a->{type}), createdAt => ts_iso($a->{createdAt}) } }

Blind::App::route(GET => '/api/v1/user-attributes/', sub {
    my $c = shift;
    my @a = map { ser_attr($_) } sort { $a->{id} <=> $b->{id} } values %{ S_->{attrs} };
    my ($items, $pi) = cursor_page(\@a, $c->{q});
    return [ 200, { items => $items, data => $items, pageInfo => $pi } ];
}, summary => 'List user attributes', tag => 'users', params => [qw(first after)], resp => 'GenericList');

Blind::App::route(POST => '/api/v1/user-attributes/', sub {
    my $c = shift;
    need_role($c->{user}, 'ADMIN', 'user attributes');
    my $bd = req_obj($c->{body});
    my $name = req_str($bd, 'name', max => 100);
    err(400, 'type must be one of ' . join(', ', sort keys %ATYPES)) unless is_str($bd->{type}) && $ATYPES{ $bd->{type} };
    err(409, "attribute '$name' already exists") if grep { $_->{name} eq $name } values %{ S_->{attrs} };
    my $id = Blind::Store::next_id('attr');
    S_->{attrs}{$id} = { id => $id, name => $name, type => $bd->{type}, createdAt => time() };
    return created(ser_attr(S_->{attrs}{$id}), "/api/v1/user-attributes/$id");
}, summary => 'Create a user attribute', tag => 'users', body => 'UserAttribute', ok => 201, resp => 'Wrapped');

Blind::App::route(PUT => '/api/v1/user-attributes/{id}', sub {
    my $c = shift;
    need_role($c->{user}, 'ADMIN', 'user attributes');
    my $id = path_int($c, 'id', 'attribute');
    my $a = S_->{attrs}{$id} or err(404, "attribute $id not found");
    my $bd = req_obj($c->{body});
    $a->{name} = opt_str($bd, 'name', max => 100) if exists $bd->{name};
    if (exists $bd->{type}) { err(400, 'type must be one of ' . join(', ', sort keys %ATYPES)) unless is_str($bd->{type}) && $ATYPES{ $bd->{type} }; $a->{type} = $bd->{type} }
    return [ 200, wrap(ser_attr($a)) ];
}, summary => 'Update a user attribute', tag => 'users', body => 'UserAttribute', resp => 'Wrapped');

Blind::App::route(GET => '/api/v1/user-attribute-values/{userId}', sub {
    my $c = shift;
    my $uid = path_int($c, 'userId', 'user');
    err(404, "user $uid not found") unless S_->{users}{$uid};
    my $v = S_->{attr_values}{$uid} // {};
    my @items = map { { attributeId => I($_), name => S(S_->{attrs}{$_}{name}), value => $v->{$_} } } grep { S_->{attrs}{$_} } sort { $a <=> $b } keys %$v;
    return [ 200, { items => \@items, data => \@items, pageInfo => { hasNextPage => FALSE, hasPreviousPage => FALSE } } ];
}, summary => "A user's attribute values", tag => 'users', resp => 'GenericList');

Blind::App::route(PUT => '/api/v1/user-attribute-values/{userId}', sub {
    my $c = shift;
    need_role($c->{user}, 'ADMIN', 'user attributes');
    my $uid = path_int($c, 'userId', 'user');
    err(404, "user $uid not found") unless S_->{users}{$uid};
    my $bd = req_obj($c->{body});
    err(400, "field 'values' must be an array of {attributeId, value}") unless is_arr($bd->{values});
    my @set;
    for my $e (@{ $bd->{values} }) {
        err(400, 'each value must be an object with attributeId and value') unless is_obj($e) && is_int($e->{attributeId});
        my $a = S_->{attrs}{ $e->{attributeId} } or err(404, "attribute $e->{attributeId} not found");
        err(400, "value for '$a->{name}' must be of type $a->{type}") unless !defined $e->{value} || $ATYPES{ $a->{type} }->($e->{value});
        push @set, [ $a->{id}, $e->{value} ];
    }
    for (@set) { if (defined $_->[1]) { S_->{attr_values}{$uid}{ $_->[0] } = $_->[1] } else { delete S_->{attr_values}{$uid}{ $_->[0] } } }
    my $v = S_->{attr_values}{$uid} // {};
    my @items = map { { attributeId => I($_), name => S(S_->{attrs}{$_}{name}), value => $v->{$_} } } nsort(keys %$v);
    return [ 200, { items => \@items, data => \@items, pageInfo => { hasNextPage => FALSE, hasPreviousPage => FALSE } } ];
}, summary => "Set a user's attribute values", tag => 'users', body => 'AttributeValues', resp => 'GenericList');

# ---------- integrations (generic CRUD) ----------
my %INTEG = (
    'oauth-integrations' => { req => [qw(name provider clientId)], secret => 'clientSecret', opt => [qw(scopes authorizeUrl tokenUrl)] },
    'user-oauth-tokens'  => { req => [qw(integrationId)], secret => 'accessToken', opt => [qw(expiresAt)] },
    'oidc-token-configs' => { req => [qw(name issuer audience)], secret => undef, opt => [qw(claimsMapping)] },
);
for my $kind (sort keys %INTEG) {
    my $def = $INTEG{$kind};
    my $store = sub { S_->{integrations}{$kind} };
    my $ser = sub {
        my $o = shift;
        my %r = (%$o, id => I($o->{id}), createdAt => ts_iso($o->{createdAt}), updatedAt => ts_iso($o->{updatedAt}));
        $r{ $def->{secret} } = '********' if $def->{secret} && defined $o->{ $def->{secret} };
        $r{integrationId} = I($o->{integrationId}) if exists $o->{integrationId};
        delete $r{owner};
        return \%r;
    };
    my $check = sub {
        my ($bd, $partial) = @_;
        my %o;
        for my $k (@{ $def->{req} }) {
            next if $partial && !exists $bd->{$k};
            if ($k eq 'integrationId') {
                err(400, "field 'integrationId' must be an integer") unless is_int($bd->{$k});
                err(404, "integration $bd->{$k} not found") unless S_->{integrations}{'oauth-integrations'}{ $bd->{$k} };
                $o{$k} = 0 + $bd->{$k};
            } else { $o{$k} = req_str($bd, $k, max => 500) }
        }
        for my $k (@{ $def->{opt} }, ($def->{secret} // ())) {
            next unless exists $bd->{$k};
            err(400, "field '$k' must not be an object") if ref $bd->{$k} eq 'HASH' && $k ne 'claimsMapping';
            $o{$k} = $bd->{$k};
        }
        return %o;
    };
    Blind::App::route(GET => "/api/v1/$kind", sub {
        my $c = shift;
        my @all = map { $ser->($_) } sort { $a->{id} <=> $b->{id} } grep { $kind ne 'user-oauth-tokens' || $_->{owner} == $c->{user}{id} } values %{ $store->() };
        my ($items, $pi) = cursor_page(\@all, $c->{q});
        return [ 200, { items => $items, data => $items, pageInfo => $pi } ];
    }, summary => "List $kind", tag => 'integrations', params => [qw(first after)], resp => 'GenericList');
    Blind::App::route(POST => "/api/v1/$kind", sub {
        my $c = shift;
        need_role($c->{user}, $kind eq 'user-oauth-tokens' ? 'VIEWER' : 'ADMIN', $kind);
        my %o = $check->(req_obj($c->{body}), 0);
        my $id = Blind::Store::next_id('integ');
        my $o = $store->()->{$id} = { %o, id => $id, createdAt => time(), updatedAt => time(), owner => $c->{user}{id} };
        return created($ser->($o), "/api/v1/$kind/$id");
    }, summary => "Create $kind", tag => 'integrations', body => 'Integration', ok => 201, resp => 'Wrapped');
    my $get = sub {
        my $c = shift;
        my $id = path_int($c, 'id', $kind);
        my $o = $store->()->{$id};
        err(404, "$kind $id not found") unless $o && ($kind ne 'user-oauth-tokens' || $o->{owner} == $c->{user}{id});
        return $o;
    };
    Blind::App::route(GET => "/api/v1/$kind/{id}", sub { my $c = shift; return [ 200, wrap($ser->($get->($c))) ] },
        summary => "Get $kind item", tag => 'integrations', resp => 'Wrapped');
    Blind::App::route(PUT => "/api/v1/$kind/{id}", sub {
        my $c = shift;
        my $o = $get->($c);
        need_role($c->{user}, $kind eq 'user-oauth-tokens' ? 'VIEWER' : 'ADMIN', $kind);
        my %n = $check->(req_obj($c->{body}), 1);
        $o->{$_} = $n{$_} for keys %n;
        $o->{updatedAt} = time();
        return [ 200, wrap($ser->($o)) ];
    }, summary => "Update $kind item", tag => 'integrations', body => 'Integration', resp => 'Wrapped');
    Blind::App::route(DELETE => "/api/v1/$kind/{id}", sub {
        my $c = shift;
        my $o = $get->($c);
        need_role($c->{user}, $kind eq 'user-oauth-tokens' ? 'VIEWER' : 'ADMIN', $kind);
        delete $store->()->{ $o->{id} };
        return [ 204 ];
    }, summary => "Delete $kind item", tag => 'integrations', ok => 204);
}

# ---------- GitHub discovery ----------
Blind::App::route(GET => '/api/v1/github/status', sub { return [ 200, wrap({ connected => TRUE, appInstalled => TRUE, account => 'example-org' }) ] },
    summary => 'GitHub connection status', tag => 'github', resp => 'Wrapped');
my @INST = ({ id => 41, account => 'example-org', type => 'Organization' }, { id => 42, account => 'ada-admin', type => 'User' });
Blind::App::route(GET => '/api/v1/github/installations', sub {
    my $c = shift;
    my ($items, $pi) = cursor_page([ map { {%$_} } @INST ], $c->{q});
    return [ 200, { items => $items, data => $items, pageInfo => $pi } ];
}, summary => 'GitHub app installations', tag => 'github', params => [qw(first after)], resp => 'GenericList');
Blind::App::route(GET => '/api/v1/github/installations/{installationId}/repositories', sub {
    my $c = shift;
    my $id = path_int($c, 'installationId', 'installation');
    my ($inst) = grep { $_->{id} == $id } @INST or err(404, "installation $id not found");
    my @r = map { { id => I($id * 1000 + $_), fullName => "$inst->{account}/cube-model-$_", private => B($_ % 2), defaultBranch => 'main' } } 1 .. 5;
    my ($items, $pi) = cursor_page(\@r, $c->{q});
    return [ 200, { items => $items, data => $items, pageInfo => $pi } ];
}, summary => 'Repositories of an installation', tag => 'github', params => [qw(first after)], resp => 'GenericList');
Blind::App::route(GET => '/api/v1/github/repositories/{owner}/{repo}/branches', sub {
    my $c = shift;
    my ($o, $r) = ($c->{p}{owner}, $c->{p}{repo});
    err(404, "repository $o/$r not found") unless grep { $_->{account} eq $o } @INST;
    my @b = map { { name => $_, protected => B($_ eq 'main') } } qw(main develop release);
    my ($items, $pi) = cursor_page(\@b, $c->{q});
    return [ 200, { items => $items, data => $items, pageInfo => $pi } ];
}, summary => 'Branches of a repository', tag => 'github', params => [qw(first after)], resp => 'GenericList');

# ---------- notifications ----------
my %OPS = map { $_ => 1 } qw(equals notEquals contains notContains gt gte lt lte inDateRange beforeDate afterDate is_empty is_not_empty);
my %GRAINS = map { $_ => 1 } qw(hour day week month quarter year);
sub check_notification {
    my ($bd, $d, $partial) = @_;
    my %o;
    $o{name} = req_str($bd, 'name', max => 200) if !$partial || exists $bd->{name};
    if (!$partial || exists $bd->{workbookId}) {
        err(400, "field 'workbookId' must be an integer") unless is_int($bd->{workbookId});
        my $w = S_->{workbooks}{ $bd->{workbookId} };
        err(404, "workbook $bd->{workbookId} not found") unless $w && $w->{deploymentId} eq $d->{id};
        $o{workbookId} = 0 + $bd->{workbookId};
    }
    if (!$partial || exists $bd->{schedule}) {
        my $s = req_str($bd, 'schedule', max => 100);
        err(400, 'schedule must be a 5-field cron expression') unless scalar(split ' ', $s) == 5;
        $o{schedule} = $s;
    }
    if (!$partial || exists $bd->{recipients}) {
        err(400, "field 'recipients' must be a non-empty array of e-mail strings") unless is_arr($bd->{recipients}) && @{ $bd->{recipients} } && !grep { !is_str($_) || !/\@/ } @{ $bd->{recipients} };
        $o{recipients} = $bd->{recipients};
    }
    if (exists $bd->{filters}) {
        err(400, "field 'filters' must be an array") unless is_arr($bd->{filters});
        for my $f (@{ $bd->{filters} }) {
            err(400, 'each filter must be an object with member and operator') unless is_obj($f) && is_str($f->{member});
            err(400, 'filter operator must be one of ' . join(', ', sort keys %OPS)) unless is_str($f->{operator}) && $OPS{ $f->{operator} };
            err(400, 'filter values must be an array of strings') if defined $f->{values} && !(is_arr($f->{values}) && !grep { ref $_ } @{ $f->{values} });
        }
        $o{filters} = $bd->{filters};
    }
    if (exists $bd->{timeGrain}) {
        err(400, 'timeGrain must be one of ' . join(', ', sort keys %GRAINS)) unless !defined $bd->{timeGrain} || (is_str($bd->{timeGrain}) && $GRAINS{ $bd->{timeGrain} });
        $o{timeGrain} = $bd->{timeGrain};
    }
    if (exists $bd->{enabled}) { $o{enabled} = B(opt_bool($bd, 'enabled')) }
    return %o;
}
sub ser_notif { my $n = shift; my %r = %$n; $r{id} = I($n->{id}); $r{deploymentId} = I($n->{deploymentId}); $r{createdAt} = ts_iso($n->{createdAt}); $r{updatedAt} = ts_iso($n->{updatedAt}); return \%r }

my $NP = '/api/v1/deployments/{deploymentId}/notifications';
Blind::App::route(GET => $NP, sub {
    my $c = shift;
    my $d = dep($c);
    my @n = map { ser_notif($_) } sort { $a->{id} <=> $b->{id} } grep { $_->{deploymentId} eq $d->{id} } values %{ S_->{notifications} };
    my ($items, $pi) = cursor_page(\@n, $c->{q});
    return [ 200, { items => $items, data => $items, pageInfo => $pi } ];
}, summary => 'List scheduled notifications', tag => 'notifications', params => [qw(first after)], resp => 'GenericList');
Blind::App::route(POST => $NP, sub {
    my $c = shift;
    my $d = dep($c);
    need_role($c->{user}, 'AI_BI_USER', 'notifications');
    my %o = check_notification(req_obj($c->{body}), $d, 0);
    my $id = Blind::Store::next_id('notif');
    my $n = S_->{notifications}{$id} = { filters => [], timeGrain => undef, enabled => TRUE, %o, id => $id, deploymentId => $d->{id},
                                         createdBy => I($c->{user}{id}), createdAt => time(), updatedAt => time() };
    return created(ser_notif($n), "/api/v1/deployments/$d->{id}/notifications/$id");
}, summary => 'Create a scheduled notification', tag => 'notifications', body => 'Notification', ok => 201, resp => 'Wrapped');
my $nget = sub {
    my $c = shift;
    my $d = dep($c);
    my $id = path_int($c, 'notificationId', 'notification');
    my $n = S_->{notifications}{$id};
    err(404, "notification $id not found") unless $n && $n->{deploymentId} eq $d->{id};
    return ($d, $n);
};
Blind::App::route(GET => "$NP/{notificationId}", sub { my ($d, $n) = $nget->(shift); return [ 200, wrap(ser_notif($n)) ] },
    summary => 'Get a scheduled notification', tag => 'notifications', resp => 'Wrapped');
Blind::App::route(PUT => "$NP/{notificationId}", sub {
    my $c = shift;
    my ($d, $n) = $nget->($c);
    need_role($c->{user}, 'AI_BI_USER', 'notifications');
    my %o = check_notification(req_obj($c->{body}), $d, 1);
    $n->{$_} = $o{$_} for keys %o;
    $n->{updatedAt} = time();
    return [ 200, wrap(ser_notif($n)) ];
}, summary => 'Update a scheduled notification', tag => 'notifications', body => 'Notification', resp => 'Wrapped');
Blind::App::route(DELETE => "$NP/{notificationId}", sub {
    my $c = shift;
    my ($d, $n) = $nget->($c);
    need_role($c->{user}, 'AI_BI_USER', 'notifications');
    delete S_->{notifications}{ $n->{id} };
    return [ 204 ];
}, summary => 'Delete a scheduled notification', tag => 'notifications', ok => 204);

# ---------- embed tenants ----------
sub ser_tenant { my $t = shift; return { id => I($t->{id}), name => S($t->{name}), externalId => S($t->{externalId}), createdAt => ts_iso($t->{createdAt}),
                                         userCount => I(scalar keys %{ $t->{users} }), groupCount => I(scalar keys %{ $t->{groups} }) } }
sub tenant_of { my $c = shift; my $id = path_int($c, 'tenantId', 'embed tenant'); my $t = S_->{tenants}{$id} or err(404, "embed tenant $id not found"); return $t }
sub list_resp { my ($c, $all) = @_; my ($items, $pi) = cursor_page($all, $c->{q}); return [ 200, { items => $items, data => $items, pageInfo => $pi } ] }
my $ET = '/api/v1/embed-tenants';

Blind::App::route(GET => $ET, sub { my $c = shift; return list_resp($c, [ map { ser_tenant($_) } sort { $a->{id} <=> $b->{id} } values %{ S_->{tenants} } ]) },
    summary => 'List embed tenants', tag => 'embedding', params => [qw(first after)], resp => 'GenericList');
Blind::App::route(POST => $ET, sub {
    my $c = shift;
    need_role($c->{user}, 'ADMIN', 'embed tenants');
    my $bd = req_obj($c->{body});
    my $name = req_str($bd, 'name', max => 200);
    my $ext = opt_str($bd, 'externalId', max => 200, nullable => 1);
    err(409, "embed tenant with externalId '$ext' exists") if defined $ext && grep { ($_->{externalId} // '') eq $ext } values %{ S_->{tenants} };
    my $id = Blind::Store::next_id('tenant');
    S_->{tenants}{$id} = { id => $id, name => $name, externalId => $ext, createdAt => time(), users => {}, groups => {} };
    return created(ser_tenant(S_->{tenants}{$id}), "$ET/$id");
}, summary => 'Create an embed tenant', tag => 'embedding', body => 'EmbedTenant', ok => 201, resp => 'Wrapped');
Blind::App::route(GET => "$ET/{tenantId}", sub { return [ 200, wrap(ser_tenant(tenant_of(shift))) ] },
    summary => 'Get an embed tenant', tag => 'embedding', resp => 'Wrapped');
Blind::App::route(PATCH => "$ET/{tenantId}", sub {
    my $c = shift;
    my $t = tenant_of($c);
    need_role($c->{user}, 'ADMIN', 'embed tenants');
    my $bd = req_obj($c->{body});
    $t->{name} = opt_str($bd, 'name', max => 200) if exists $bd->{name};
    $t->{externalId} = opt_str($bd, 'externalId', max => 200, nullable => 1) if exists $bd->{externalId};
    return [ 200, wrap(ser_tenant($t)) ];
}, summary => 'Update an embed tenant', tag => 'embedding', body => 'EmbedTenant', resp => 'Wrapped');
Blind::App::route(DELETE => "$ET/{tenantId}", sub {
    my $c = shift;
    my $t = tenant_of($c);
    need_role($c->{user}, 'ADMIN', 'embed tenants');
    delete S_->{tenants}{ $t->{id} };
    return [ 204 ];
}, summary => 'Delete an embed tenant', tag => 'embedding', ok => 204);

sub ser_euser { my $u = shift; return { id => S($u->{id}), email => S($u->{email}), name => S($u->{name}), createdAt => ts_iso($u->{createdAt}) } }
Blind::App::route(GET => "$ET/{tenantId}/users", sub { my $c = shift; my $t = tenant_of($c);
    return list_resp($c, [ map { ser_euser($t->{users}{$_}) } sort keys %{ $t->{users} } ]) },
    summary => 'List embed tenant users', tag => 'embedding', params => [qw(first after)], resp => 'GenericList');
Blind::App::route(POST => "$ET/{tenantId}/users", sub {
    my $c = shift;
    my $t = tenant_of($c);
    need_role($c->{user}, 'ADMIN', 'embed tenants');
    my $bd = req_obj($c->{body});
    my $id = req_str($bd, 'id', max => 200);
    err(409, "embed user '$id' exists") if $t->{users}{$id};
    $t->{users}{$id} = { id => $id, email => opt_str($bd, 'email', nullable => 1, max => 320), name => opt_str($bd, 'name', nullable => 1, max => 200), createdAt => time() };
    return created(ser_euser($t->{users}{$id}), "$ET/$t->{id}/users/$id");
}, summary => 'Create an embed tenant user', tag => 'embedding', body => 'EmbedUser', ok => 201, resp => 'Wrapped');
Blind::App::route(DELETE => "$ET/{tenantId}/users/{userId}", sub {
    my $c = shift;
    my $t = tenant_of($c);
    need_role($c->{user}, 'ADMIN', 'embed tenants');
    delete $t->{users}{ $c->{p}{userId} } or err(404, "embed user '$c->{p}{userId}' not found");
    $_->{members} = [ grep { $_ ne $c->{p}{userId} } @{ $_->{members} } ] for values %{ $t->{groups} };
    return [ 204 ];
}, summary => 'Delete an embed tenant user', tag => 'embedding', ok => 204);

sub ser_group { my $g = shift; return { id => I($g->{id}), name => S($g->{name}), memberCount => I(scalar @{ $g->{members} }), createdAt => ts_iso($g->{createdAt}) } }
sub group_of { my ($c, $t) = @_; my $id = path_int($c, 'groupId', 'group'); my $g = $t->{groups}{$id} or err(404, "group $id not found"); return $g }
Blind::App::route(GET => "$ET/{tenantId}/groups", sub { my $c = shift; my $t = tenant_of($c);
    my @g = map { ser_group($_) } sort { $a->{id} <=> $b->{id} } values %{ $t->{groups} };
    if (defined(my $s = $c->{q}{search})) { @g = grep { index(lc $_->{name}, lc $s) >= 0 } @g }
    return list_resp($c, \@g) }, summary => 'List embed groups', tag => 'embedding', params => [qw(search first after)], resp => 'GenericList');
Blind::App::route(POST => "$ET/{tenantId}/groups", sub {
    my $c = shift;
    my $t = tenant_of($c);
    need_role($c->{user}, 'ADMIN', 'embed tenants');
    my $bd = req_obj($c->{body});
    my $name = req_str($bd, 'name', max => 200);
    my $id = Blind::Store::next_id('egroup');
    $t->{groups}{$id} = { id => $id, name => $name, members => [], createdAt => time() };
    return created(ser_group($t->{groups}{$id}), "$ET/$t->{id}/groups/$id");
}, summary => 'Create an embed group', tag => 'embedding', body => 'EmbedGroup', ok => 201, resp => 'Wrapped');
Blind::App::route(PATCH => "$ET/{tenantId}/groups/{groupId}", sub {
    my $c = shift;
    my $t = tenant_of($c);
    my $g = group_of($c, $t);
    need_role($c->{user}, 'ADMIN', 'embed tenants');
    my $bd = req_obj($c->{body});
    $g->{name} = opt_str($bd, 'name', max => 200) if exists $bd->{name};
    return [ 200, wrap(ser_group($g)) ];
}, summary => 'Rename an embed group', tag => 'embedding', body => 'EmbedGroup', resp => 'Wrapped');
Blind::App::route(DELETE => "$ET/{tenantId}/groups/{groupId}", sub {
    my $c = shift;
    my $t = tenant_of($c);
    my $g = group_of($c, $t);
    need_role($c->{user}, 'ADMIN', 'embed tenants');
    delete $t->{groups}{ $g->{id} };
    return [ 204 ];
}, summary => 'Delete an embed group', tag => 'embedding', ok => 204);
Blind::App::route(GET => "$ET/{tenantId}/groups/{groupId}/members", sub {
    my $c = shift;
    my $t = tenant_of($c);
    my $g = group_of($c, $t);
    return list_resp($c, [ map { ser_euser($t->{users}{$_}) } grep { $t->{users}{$_} } @{ $g->{members} } ]);
}, summary => 'List embed group members', tag => 'embedding', params => [qw(first after)], resp => 'GenericList');
Blind::App::route(POST => "$ET/{tenantId}/groups/{groupId}/members", sub {
    my $c = shift;
    my $t = tenant_of($c);
    my $g = group_of($c, $t);
    need_role($c->{user}, 'ADMIN', 'embed tenants');
    my $bd = req_obj($c->{body});
    my $uid = req_str($bd, 'userId', max => 200);
    err(404, "embed user '$uid' not found") unless $t->{users}{$uid};
    push @{ $g->{members} }, $uid unless grep { $_ eq $uid } @{ $g->{members} };
    return [ 200, wrap(ser_group($g)) ];
}, summary => 'Add an embed group member', tag => 'embedding', body => 'EmbedMember', resp => 'Wrapped');
Blind::App::route(DELETE => "$ET/{tenantId}/groups/{groupId}/members/{userId}", sub {
    my $c = shift;
    my $t = tenant_of($c);
    my $g = group_of($c, $t);
    need_role($c->{user}, 'ADMIN', 'embed tenants');
    my $uid = $c->{p}{userId};
    err(404, "embed user '$uid' is not a member") unless grep { $_ eq $uid } @{ $g->{members} };
    $g->{members} = [ grep { $_ ne $uid } @{ $g->{members} } ];
    return [ 204 ];
}, summary => 'Remove an embed group member', tag => 'embedding', ok => 204);

# ---------- dbt sync ----------
# Jobs advance one state per status poll: queued -> running -> succeeded.
my $DP = '/api/v1/deployments/{deploymentId}/dbt-sync';
sub ser_job { my $j = shift; return { id => I($j->{id}), status => S($j->{status}), trigger => S($j->{trigger}), branchName => S($j->{branchName}),
                                     ref => S($j->{ref}), createdAt => ts_iso($j->{createdAt}), finishedAt => $j->{finishedAt} ? ts_iso($j->{finishedAt}) : undef } }
sub job_of {
    my $c = shift;
    my $d = dep($c);
    my $id = path_int($c, 'syncJobId', 'sync job');
    my $j = S_->{jobs}{$id};
    err(404, "sync job $id not found") unless $j && $j->{dep} eq $d->{id};
    return $j;
}
Blind::App::route(POST => $DP, sub {
    my $c = shift;
    my $d = dep($c);
    need_role($c->{user}, 'DEVELOPER', 'dbt sync');
    my $bd = $c->{body} // {};
    req_obj($bd);
    my $bn = opt_str($bd, 'branchName', max => 200) // 'main';
    Blind::Store::find_branch($d, name => $bn) or err(404, "branch '$bn' not found");
    my $ref = opt_str($bd, 'ref', max => 200, nullable => 1);
    my $id = Blind::Store::next_id('job');
    my $j = S_->{jobs}{$id} = { id => $id, dep => $d->{id}, status => 'queued', trigger => 'api', branchName => $bn, ref => $ref, createdAt => time() };
    return created(ser_job($j), "/api/v1/deployments/$d->{id}/dbt-sync/$id");
}, summary => 'Start a dbt sync', tag => 'dbt', body => 'DbtSyncStart', ok => 201, resp => 'Wrapped');
Blind::App::route(GET => $DP, sub {
    my $c = shift;
    my $d = dep($c);
    my $q = $c->{q};
    err(400, "query parameter 'status' must be one of queued, running, succeeded, failed, cancelled") if exists $q->{status} && $q->{status} !~ /^(queued|running|succeeded|failed|cancelled)\z/;
    err(400, "query parameter 'trigger' must be one of api, schedule, manual") if exists $q->{trigger} && $q->{trigger} !~ /^(api|schedule|manual)\z/;
    my @j = grep { $_->{dep} eq $d->{id} && (!exists $q->{status} || $_->{status} eq $q->{status}) && (!exists $q->{trigger} || $_->{trigger} eq $q->{trigger}) }
            sort { $b->{id} <=> $a->{id} } values %{ S_->{jobs} };
    return list_resp($c, [ map { ser_job($_) } @j ]);
}, summary => 'dbt sync run history', tag => 'dbt', params => [qw(status trigger first after)], resp => 'GenericList');
Blind::App::route(GET => "$DP/{syncJobId}", sub {
    my $j = job_of(shift);
    my $out = ser_job($j);
    if ($j->{status} eq 'queued') { $j->{status} = 'running' }
    elsif ($j->{status} eq 'running') { $j->{status} = 'succeeded'; $j->{finishedAt} = time() }
    return [ 200, wrap($out) ];
}, summary => 'Poll a dbt sync job', tag => 'dbt', resp => 'Wrapped');
Blind::App::route(DELETE => "$DP/{syncJobId}", sub {
    my $c = shift;
    my $j = job_of($c);
    need_role($c->{user}, 'DEVELOPER', 'dbt sync');
    if ($j->{status} =~ /^(queued|running)$/) { $j->{status} = 'cancelled'; $j->{finishedAt} = time() }
    return [ 200, wrap(ser_job($j)) ];
}, summary => 'Cancel a dbt sync job (no-op when finished)', tag => 'dbt', resp => 'Wrapped');
Blind::App::route(GET => "$DP/{syncJobId}/result", sub {
    my $j = job_of(shift);
    err(404, "sync job $j->{id} has no result yet (status $j->{status})") unless $j->{status} eq 'succeeded';
    return [ 200, wrap({ jobId => I($j->{id}), modelsSynced => 7, filesWritten => [ 'model/dbt/orders.yml', 'model/dbt/customers.yml' ], warnings => [] }) ];
}, summary => 'Result of a dbt sync job', tag => 'dbt', resp => 'Wrapped');
Blind::App::route(GET => "$DP/{syncJobId}/logs", sub {
    my $c = shift;
    my $j = job_of($c);
    my @l = map { { timestamp => ts_iso($j->{createdAt} + $_), level => 'info', message => "step $_ of dbt sync $j->{id}" } } 1 .. 5;
    return list_resp($c, \@l);
}, summary => 'Log entries of a dbt sync job', tag => 'dbt', params => [qw(first after)], resp => 'GenericList');


sub nsort { return sort { $a <=> $b } @_ }
1;
