package Blind::Core;
# E1-E7, E13 and deployment-level E14 endpoints.
use strict;
use utf8;
use warnings;
use Blind::Util;
use Blind::Store;
use Blind::App;
use JSON::PP ();
use Encode ();

sub S_ { $Blind::Store::S }
*dep = \&Blind::App::dep;

my %ENVTYPES = map { $_ => 1 } qw(production staging development);

# ---------- E1 ----------
Blind::App::route(GET => '/api/v1/deployments', sub {
    my $c = shift;
    my @all = map { S_->{deployments}{$_} } @{ S_->{dep_order} };
    my ($slice, $pg) = offset_page(\@all, $c->{q});
    return [ 200, { data => { deployments => [ map { Blind::Store::ser_dep_list($_) } @$slice ] }, pagination => $pg } ];
}, summary => 'List deployments', tag => 'deployments', params => [qw(offset limit)], resp => 'DeploymentList');

# ---------- environments ----------
sub environments {
    my ($dep) = @_;
    my @env;
    my $owner = Blind::Store::user_by_key('admin');
    my $host = "d$dep->{id}.platform.example.test";
    my $creds = sub {
        my ($sub) = @_;
        my $h = "$sub$host";
        return [ { type => 'rest', version => 1, database => 'cube', host => $h, port => 443, url => "https://$h/cubejs-api/v1" },
                 { type => 'sql', version => 1, database => 'cube', host => "sql.$h", port => 5432, url => "postgres://sql.$h:5432/cube" },
                 { type => 'graphql', version => 1, database => 'cube', host => $h, port => 443, url => "https://$h/cubejs-api/graphql" } ];
    };
    for my $bd (@{ $dep->{branches} }) {
        if ($bd->{kind} eq 'production') {
            push @env, { id => $dep->{prod_env_id}, type => 'production', branch => $bd->{name}, user => 'ada.admin', api_credentials => $creds->('') };
        }
        if ($bd->{staging} && $bd->{kind} eq 'shared') {
            push @env, { id => $bd->{stg_env_id}, type => 'staging', branch => $bd->{name}, user => 'ada.admin',
                         api_credentials => $creds->("stg-$bd->{id}.") };
        }
        if ($bd->{devMode}) {
            my $u = S_->{users}{ $bd->{owner} // 0 };
            my $handle = $u ? ($u->{email} =~ s/\@.*//r) : 'shared';
            push @env, { id => $bd->{dev_env_id}, type => 'development', branch => $bd->{name}, user => $handle,
                         api_credentials => $creds->("dev-$bd->{id}.") };
        }
    }
    return sort { $a->{id} cmp $b->{id} } @env;
}

Blind::App::route(GET => '/api/v1/deployments/{deploymentId}/environments', sub {
    my $c = shift;
    my $d = dep($c);
    my $q = $c->{q};
    my $cursor = exists $q->{first} || exists $q->{after};
    my $offs = exists $q->{offset} || exists $q->{limit};
    err(400, 'use either offset/limit or first/after, not both') if $cursor && $offs;
    if (exists $q->{type}) { err(400, "query parameter 'type' must be one of production, staging, development") unless $ENVTYPES{ $q->{type} } }
    my @env = grep { !exists $q->{type} || $_->{type} eq $q->{type} } environments($d);
    my ($items, $pi) = cursor_page(\@env, $q, all_by_default => 1);
    my ($slice, $pg) = offset_page(\@env, $q, limit_min => 0);
    return [ 200, { items => $items, pageInfo => $pi, data => $slice, pagination => ($cursor ? undef : $pg) } ];
}, summary => 'List environments of a deployment', tag => 'deployments', params => [qw(type offset limit first after)], resp => 'EnvironmentList');

# ---------- E3 ----------
Blind::App::route(POST => '/api/v1/deployments/{deploymentId}/environments/{environmentId}/tokens-for-meta-sync', sub {
    my $c = shift;
    my $d = dep($c);
    my ($env) = grep { $_->{id} eq $c->{p}{environmentId} } environments($d);
    err(404, "environment '$c->{p}{environmentId}' not found") unless $env;
    my $bd = req_obj($c->{body});
    err(400, "field 'security_context' is required") unless exists $bd->{security_context};
    err(400, "field 'security_context' must be an object") unless is_obj($bd->{security_context});
    my $exp = 86400;
    if (exists $bd->{expires_in}) {
        my $v = $bd->{expires_in};
        err(400, "field 'expires_in' must be a number") unless is_num($v);
        err(400, "field 'expires_in' must be between 1 and 2592000 seconds") if $v < 1 || $v > 2592000;
        $exp = int($v);
    }
    my $now = time();
    my $tok = jwt_sign({ security_context => $bd->{security_context}, scope => 'meta', deploymentId => "$d->{id}",
                         environmentId => $env->{id}, iat => $now, exp => $now + $exp }, S_->{secret});
    return [ 200, { data => { token => $tok, created_at => ts_iso($now), expires_at => ts_iso($now + $exp),
                              security_context => $bd->{security_context} } } ];
}, summary => 'Create a metadata-only token', tag => 'deployments', body => 'MetaTokenRequest', resp => 'MetaTokenResponse');

# ---------- E5 ----------
Blind::App::route(GET => '/api/v1/deployments/{deploymentId}/versions', sub {
    my $c = shift;
    my $d = dep($c);
    my @v = map { { releaseChannelVersion => S($_->{image}), version => S($_->{version}), releaseChannel => S($_->{channel}),
                    isLatestInChannel => B($_->{latest}), isCurrent => B($_->{version} eq $d->{releaseChannelVersion}) } }
            Blind::Store::versions_catalog();
    return [ 200, { data => \@v } ];
}, summary => 'List deployment versions', tag => 'deployments', resp => 'VersionList');

# ---------- E6 ----------
my %CLOUD = map { $_ => 1 } qw(managed aws gcp);
my %CM = map { $_ => 1 } qw(upload managed github ssh);
my %DM = map { $_ => 1 } qw(git cli);

sub resolve_version {
    my $v = shift;
    for my $e (Blind::Store::versions_catalog()) {
        return $e if $v eq $e->{version} || $v eq "v$e->{version}" || $v eq $e->{image};
    }
    return undef;
}

Blind::App::route(PUT => '/api/v1/deployments/{deploymentId}', sub {
    my $c = shift;
    my $d = dep($c);
    need_role($c->{user}, 'ADMIN', 'update deployment');
    my $bd = req_obj($c->{body});
    my %set;
    if (exists $bd->{cloudProvider}) { my $v = $bd->{cloudProvider}; err(400, "cloudProvider must be one of managed, aws, gcp") unless is_str($v) && $CLOUD{$v}; $set{cloudProvider} = $v }
    if (exists $bd->{region}) { $set{region} = req_str($bd, 'region', max => 100) }
    if (exists $bd->{template}) { $set{template} = req_str($bd, 'template', max => 200) }
    if (exists $bd->{creation_method}) { my $v = $bd->{creation_method}; err(400, "creation_method must be one of upload, managed, github, ssh") unless is_str($v) && $CM{$v}; $set{creation_method} = $v }
    if (exists $bd->{deploy_mode}) { my $v = $bd->{deploy_mode}; err(400, "deploy_mode must be one of git, cli") unless is_str($v) && $DM{$v}; $set{deploy_mode} = $v }
    if (exists $bd->{defaultLaunchpadViewGroup}) { $set{defaultLaunchpadViewGroup} = opt_str($bd, 'defaultLaunchpadViewGroup', nullable => 1, allow_empty => 1) }
    if (exists $bd->{launchpadTabs}) { err(400, 'launchpadTabs must be an array') unless is_arr($bd->{launchpadTabs}); $set{launchpadTabs} = $bd->{launchpadTabs} }
    if (exists $bd->{templateVariables}) { err(400, 'templateVariables must be an object') unless is_obj($bd->{templateVariables}) }
    my $hold = opt_bool($bd, 'releaseChannelVersionHold');
    my ($chan, $ver);
    if (exists $bd->{releaseChannel}) {
        $chan = $bd->{releaseChannel};
        err(400, 'releaseChannel must be one of ' . join(', ', Blind::Store::channel_names()))
          unless is_str($chan) && grep { $_ eq $chan } Blind::Store::channel_names();
    }
    if (exists $bd->{releaseChannelVersion}) {
        my $v = $bd->{releaseChannelVersion};
        err(400, 'releaseChannelVersion must be a string naming one of the listed versions') unless is_str($v);
        $ver = resolve_version($v) or err(400, "releaseChannelVersion '$v' is not one of the versions listed for this deployment");
    }
    # apply
    $d->{$_} = $set{$_} for keys %set;
    if (is_obj($bd->{templateVariables})) { $d->{templateVariables}{$_} = $bd->{templateVariables}{$_} for keys %{ $bd->{templateVariables} } }
    if ($ver) {
        $d->{releaseChannelVersion} = $ver->{version};
        $d->{releaseChannel} = $ver->{channel};
        $d->{releaseChannelVersionHold} = $ver->{latest} ? ($hold // 0) : 1;
    } elsif (defined $chan) {
        $d->{releaseChannel} = $chan;
        $d->{releaseChannelVersion} = Blind::Store::latest_of($chan);
        $d->{releaseChannelVersionHold} = $hold // 0;
    } elsif (defined $hold) {
        $d->{releaseChannelVersionHold} = $hold;
    }
    Blind::Store::audit('Deployment updated', $c->{user}{email}, $d->{name}, { fields => [ sort keys %$bd ] });
    return [ 200, Blind::Store::ser_dep_full($d) ];
}, summary => 'Update a deployment (partial merge)', tag => 'deployments', body => 'DeploymentUpdate', resp => 'DeploymentDetail');

Blind::App::route(DELETE => '/api/v1/deployments/{deploymentId}', sub {
    my $c = shift;
    my $d = dep($c);
    need_role($c->{user}, 'ADMIN', 'delete deployment');
    delete S_->{deployments}{ $d->{id} };
    S_->{dep_order} = [ grep { $_ ne $d->{id} } @{ S_->{dep_order} } ];
    for my $k (qw(workbooks folders reports)) {
        for my $id (keys %{ S_->{$k} }) { delete S_->{$k}{$id} if S_->{$k}{$id}{deploymentId} eq $d->{id} }
    }
    Blind::Store::audit('Deployment deleted', $c->{user}{email}, $d->{name}, {});
    return [ 204 ];
}, summary => 'Delete a deployment', tag => 'deployments', ok => 204);

# ---------- settings ----------
Blind::App::route(GET => '/api/v1/deployments/{deploymentId}/settings', sub {
    my $c = shift;
    my $d = dep($c);
    my $full = Blind::Store::ser_dep_full($d);
    $full->{envVarNames} = [ map { S($_->{name}) } @{ $d->{env} } ];
    return [ 200, { data => $full } ];
}, summary => 'All deployment settings (secrets excluded)', tag => 'deployments', resp => 'Wrapped');

# ---------- E13 + PUT env-vars ----------
sub masked {
    my $n = shift;
    return ($n =~ /PASS|SECRET|TOKEN|KEY|CREDENTIAL/) ? 1 : 0;    # literal, case-sensitive
}

sub env_list {
    my $d = shift;
    return map { { name => S($_->{name}), value => S(masked($_->{name}) ? '[ENCRYPTED]' : $_->{value}) } }
           sort { $b->{seq} <=> $a->{seq} } @{ $d->{env} };
}

Blind::App::route(GET => '/api/v1/deployments/{deploymentId}/env-vars', sub {
    my $c = shift;
    my $d = dep($c);
    my @all = env_list($d);
    my ($items, $pi) = cursor_page(\@all, $c->{q});
    return [ 200, { items => $items, data => $items, pageInfo => $pi } ];
}, summary => 'List environment variables', tag => 'deployments', params => [qw(first after)], resp => 'EnvVarList');

Blind::App::route(PUT => '/api/v1/deployments/{deploymentId}/env-vars', sub {
    my $c = shift;
    my $d = dep($c);
    need_role($c->{user}, 'DEVELOPER', 'set environment variables');
    my $bd = req_obj($c->{body});
    my $list = $bd->{env_variables};
    err(400, "field 'env_variables' is required and must be an array") unless is_arr($list);
    my @ok;
    for my $i (0 .. $#$list) {
        my $e = $list->[$i];
        err(400, "env_variables[$i] must be an object") unless is_obj($e);
        my $n = $e->{name};
        my $v = $e->{value};
        err(400, "env_variables[$i].name must be a string") unless is_str($n);
        err(400, "env_variables[$i].name must match ^[A-Za-z_][A-Za-z0-9_]*\$") unless $n =~ /^[A-Za-z_][A-Za-z0-9_]*\z/ && length $n <= 256;
        err(400, "env_variables[$i].value must be a string") unless is_str($v);
        err(400, "env_variables[$i].value must not be the [ENCRYPTED] placeholder") if $v eq '[ENCRYPTED]';
        push @ok, [ $n, $v ];
    }
    Blind::Store::set_env($d, @$_) for @ok;
    Blind::Store::audit('Environment variable changed', $c->{user}{email}, $d->{name}, { names => [ map { $_->[0] } @ok ], value => '[HIDDEN]' }) if @ok;
    my @all = env_list($d);
    return [ 200, { items => \@all, data => \@all, pageInfo => { hasNextPage => FALSE, hasPreviousPage => FALSE,
        (@all ? (startCursor => Blind::Util::enc_cursor(1), endCursor => Blind::Util::enc_cursor(scalar @all)) : ()) } } ];
}, summary => 'Set environment variables (add or update by name)', tag => 'deployments', body => 'EnvVarsPut', resp => 'EnvVarList');

# ---------- build status, logs, pods, creation step ----------
Blind::App::route(GET => '/api/v1/deployments/{deploymentId}/build-status', sub {
    my $c = shift;
    my $d = dep($c);
    my $bn = $c->{q}{branchName} // 'main';
    my $bd = Blind::Store::find_branch($d, name => $bn) or err(404, "branch '$bn' not found");
    return [ 200, { data => { branchName => S($bd->{name}), state => ($bd->{building} ? 'BUILDING' : 'DEPLOYED'), commitHash => S($bd->{lastHash}),
                              updatedAt => ts_iso($bd->{updatedAt} // $bd->{createdAt}) } } ];
}, summary => 'Build/deploy state for a branch', tag => 'deployments', params => [qw(branchName)], resp => 'Wrapped');

my %SRC = map { $_ => 1 } qw(production dev);
my %CONT = map { $_ => 1 } qw(INIT MAIN vector api-proxy cubejs-server);
Blind::App::route(GET => '/api/v1/deployments/{deploymentId}/logs', sub {
    my $c = shift;
    my $d = dep($c);
    my $q = $c->{q};
    err(400, "query parameter 'source' must be production or dev") if exists $q->{source} && !$SRC{ $q->{source} };
    err(400, "query parameter 'container' must be one of INIT, MAIN, vector, api-proxy, cubejs-server") if exists $q->{container} && !$CONT{ $q->{container} };
    my @logs;
    my $t = time() - 600;
    my $i = 0;
    for my $src (qw(production dev)) {
        for my $ct (sort keys %CONT) {
            for my $n (1 .. 4) { push @logs, { timestamp => ts_iso($t + $i++ * 7), source => $src, container => $ct, level => 'info',
                                               message => "[$ct] heartbeat $n for deployment $d->{id}" } }
        }
    }
    @logs = grep { (!exists $q->{source} || $_->{source} eq $q->{source}) && (!exists $q->{container} || $_->{container} eq $q->{container}) } @logs;
    my ($items, $pi) = cursor_page(\@logs, $q);
    return [ 200, { items => $items, data => $items, pageInfo => $pi } ];
}, summary => 'Container logs', tag => 'deployments', params => [qw(source container first after)], resp => 'GenericList');

Blind::App::route(GET => '/api/v1/deployments/{deploymentId}/pods', sub {
    my $c = shift;
    my $d = dep($c);
    my @p = map { { name => "cube-$d->{id}-$_", status => 'Running', restarts => 0, containers => [qw(INIT MAIN vector api-proxy cubejs-server)],
                    startedAt => ts_iso(time() - 3600) } } qw(api-0 api-1 refresh-0);
    my ($items, $pi) = cursor_page(\@p, $c->{q});
    return [ 200, { items => $items, data => $items, pageInfo => $pi } ];
}, summary => 'Pods list', tag => 'deployments', params => [qw(first after)], resp => 'GenericList');

my @STEPS = qw(choose-source connect-repository configure-database configure-credentials deploy done);
for my $act (qw(advance reset)) {
    Blind::App::route(POST => "/api/v1/deployments/{deploymentId}/creation-step/$act", sub {
        my $c = shift;
        my $d = dep($c);
        need_role($c->{user}, 'ADMIN', 'setup wizard');
        if ($act eq 'reset') { $d->{creationStep} = $STEPS[0] }
        else {
            my ($i) = grep { $STEPS[$_] eq $d->{creationStep} } 0 .. $#STEPS;
            $i //= $#STEPS;
            $d->{creationStep} = $STEPS[ $i < $#STEPS ? $i + 1 : $i ];
        }
        return [ 200, { data => { creationStep => S($d->{creationStep}), steps => [@STEPS] } } ];
    }, summary => ucfirst($act) . ' the setup wizard', tag => 'deployments', resp => 'Wrapped');
}

Blind::App::route(GET => '/api/v1/regions/', sub {
    my $c = shift;
    my @r = map { { id => $_->[0], name => $_->[1], cloudProvider => $_->[2] } }
        ([ 'eu-west-1', 'Europe (Ireland)', 'aws' ], [ 'us-east-1', 'US East (N. Virginia)', 'aws' ], [ 'ap-southeast-2', 'Asia Pacific (Sydney)', 'aws' ],
         [ 'us-central1', 'US Central (Iowa)', 'gcp' ], [ 'europe-west3', 'Europe (Frankfurt)', 'gcp' ], [ 'managed-eu', 'Managed Europe', 'managed' ]);
    my ($items, $pi) = cursor_page(\@r, $c->{q});
    return [ 200, { items => $items, data => $items, pageInfo => $pi } ];
}, summary => 'Regions available to the tenant', tag => 'deployments', params => [qw(first after)], resp => 'GenericList');

# ---------- E7 ----------
sub parse_day {
    my ($v, $name, $end) = @_;
    my ($y, $m, $dd) = $v =~ /^(\d{4})-(\d{2})-(\d{2})(?:T[0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/ or err(400, "query parameter '$name' must be an ISO 8601 date");
    require Time::Local;
    my $t = eval { Time::Local::timegm(0, 0, 0, $dd, $m - 1, $y) };
    err(400, "query parameter '$name' is not a valid date") unless defined $t;
    return $end ? $t + 86400 : $t;
}

sub csv_cell { my $v = shift // ''; return $v =~ /[",\n\r]/ ? '"' . ($v =~ s/"/""/gr) . '"' : $v }

Blind::App::route(GET => '/api/v1/audit-logs/export', sub {
    my $c = shift;
    my $q = $c->{q};
    err(403, 'the audit log feature is not enabled for this tenant') unless S_->{tenant_settings}{auditLogEnabled};
    err(403, 'permission AuditLogManage is required') unless grep { $_ eq 'AuditLogManage' } @{ $c->{user}{permissions} };
    my $from = exists $q->{start} ? parse_day($q->{start}, 'start', 0) : undef;
    my $to   = exists $q->{end} ? parse_day($q->{end}, 'end', 1) : undef;
    my @terms = grep { length } split /\s+/, lc($q->{search} // '');
    my @rows = grep {
        my $e = $_;
        my $hay = lc(join ' ', $e->{event}, $e->{email}, $e->{deployment}, JSON::PP->new->canonical->encode($e->{details}));
        (!defined $from || $e->{ts} >= $from) && (!defined $to || $e->{ts} < $to)
          && (!exists $q->{eventName} || $e->{event} eq $q->{eventName})
          && (!exists $q->{userEmail} || lc $e->{email} eq lc $q->{userEmail})
          && !grep { index($hay, $_) < 0 } @terms
    } @{ S_->{audit} };
    @rows = sort { lc $a->{email} cmp lc $b->{email} || $a->{ts} <=> $b->{ts} } @rows;
    my $csv = "timestamp,event,user_email,deployment,ip_address,details\n";
    for my $e (@rows) {
        my $det = JSON::PP->new->canonical->encode($e->{details});
        $csv .= join(',', map { csv_cell($_) } ts_iso($e->{ts}), $e->{event}, $e->{email}, $e->{deployment}, $e->{ip}, $det) . "\n";
    }
    return { status => 200, headers => [ 'Content-Type' => 'text/csv', 'Content-Disposition' => 'attachment; filename="audit-logs-export.csv"' ],
             body => Encode::encode('UTF-8', $csv) };
}, summary => 'Export audit log as CSV', tag => 'audit', params => [qw(start end search eventName userEmail)], resp => 'CSV');

1;
