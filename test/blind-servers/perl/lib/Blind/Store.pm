package Blind::Store;
# In-memory state, seed data, access rules and serializers of shared resources.
use strict;
use utf8;
use warnings;
use Blind::Util;
use Digest::SHA qw(sha1_hex sha256_hex);

our $S;    # the single state hash

my @CHANNELS = (
    [ release => [ '1.6.10', '1.6.18' ] ],
    [ latest  => [ '1.7.14', '1.7.20', '1.7.22' ] ],
);

sub versions_catalog {
    my @out;
    for my $c (@CHANNELS) {
        my ($ch, $vs) = @$c;
        for my $i (0 .. $#$vs) {
            push @out, { version => $vs->[$i], channel => $ch, latest => ($i == $#$vs ? 1 : 0),
                         image => "cubejs/cube:v$vs->[$i]" };
        }
    }
    return @out;
}

sub latest_of {
    my $ch = shift;
    for my $c (@CHANNELS) { return $c->[1][-1] if $c->[0] eq $ch }
    return undef;
}

sub channel_names { map { $_->[0] } @CHANNELS }

sub rand_key { my $p = shift; return $p . substr(sha256_hex(rand() . time() . $$ . $p), 0, 32) }

sub next_id { my $k = shift; return ++$S->{seq}{$k} }

sub init {
    my $t0 = time() - 86400 * 40;
    $S = { seq => { deployment => 70, folder => 300, workbook => 500, report => 800, dashboard => 40,
                    snapshot => 2000, version => 9000, branch => 10, user => 100, notif => 0, job => 0,
                    tenant => 0, egroup => 0, attr => 0, integ => 0, placement => 0, upload => 0, event => 0 },
           secret => rand_key('jwt'), deployments => {}, dep_order => [], users => {}, tokens => {},
           folders => {}, workbooks => {}, reports => {}, dashboards => {}, audit => [], notifications => {},
           jobs => {}, tenants => {}, integrations => { 'oauth-integrations' => {}, 'user-oauth-tokens' => {}, 'oidc-token-configs' => {} },
           attrs => {}, attr_values => {}, uploads => {}, placements => {},
           tenant_settings => { auditLogEnabled => TRUE, planTier => 'enterprise', defaultTimezone => 'UTC',
                                allowPublicSharing => FALSE, sessionTimeoutMinutes => 720 },
           app_config => { appTheme => { primaryColor => '#3a5bd9', mode => 'light' }, applyThemeGlobally => FALSE,
                           creatorMode => FALSE, embedding => { enabled => TRUE, allowedOrigins => [] },
                           sheetsUi => FALSE, timezoneSettings => { timezone => 'UTC', weekStart => 'monday' } },
    };

    # users: one per role, plus an auditor (viewer with AuditLogManage) and a creator-mode embed session
    my @u = (
        [ admin      => 'ADMIN',      'ada.admin@example.test',    'Ada',    [qw(AuditLogManage SecretsManage DownloadData)] ],
        [ developer  => 'DEVELOPER',  'dev.dinesh@example.test',   'Dinesh', [qw(DownloadData)] ],
        [ aiBiUser   => 'AI_BI_USER', 'bi.bea@example.test',       'Bea',    [qw(DownloadData)] ],
        [ viewer     => 'VIEWER',     'view.victor@example.test',  'Victor', [] ],
        [ auditor    => 'VIEWER',     'audit.aurora@example.test', 'Aurora', [qw(AuditLogManage)] ],
        [ embedCreator => 'AI_BI_USER', 'creator.embed@example.test', undef, [], 1 ],
    );
    for my $d (@u) {
        my ($key, $role, $email, $first, $perms, $creator) = @$d;
        my $id = next_id('user');
        my $tok = rand_key('plk_');
        $S->{users}{$id} = { id => $id, email => $email, firstName => $first, lastName => undef, role => $role,
                             permissions => $perms, active => 1, creatorMode => $creator ? 1 : 0, tokenKey => $key,
                             createdAt => $t0, picture => undef };
        $S->{tokens}{$tok} = $id;
        $S->{token_by_role}{$key} = $tok;
    }
    my ($admin, $dev, $bi, $viewer) = map { user_by_key($_)->{id} } qw(admin developer aiBiUser viewer);

    my @deps = (
        [ 'Playground (mutable)', 'managed', 'eu-west-1', undef ],
        [ 'Sales Analytics',      'aws',     'us-east-1', undef ],
        [ 'Capped Workspace',     'gcp',     'us-central1', 2 ],
        [ 'Ops Telemetry',        'aws',     'ap-southeast-2', undef ],
    );
    my $i = 0;
    for my $d (@deps) {
        my $dep = new_deployment($d->[0], $d->[1], $d->[2], $t0 + 3600 * $i++);
        $dep->{workbookLimit} = $d->[3];
    }
    my @ids = @{ $S->{dep_order} };
    $S->{fixtures} = { mutable => $ids[0], limit => $ids[2] };

    # env vars
    my $d0 = $S->{deployments}{ $ids[0] };
    set_env($d0, $_->[0], $_->[1]) for (['CUBEJS_DB_TYPE', 'postgres'], ['CUBEJS_DB_HOST', 'db.internal'],
        ['CUBEJS_DB_PASS', 'hunter2'], ['CUBEJS_API_SECRET', 's3cr3t'], ['AWS_ACCESS_KEY_ID', 'AKIA000'],
        ['CUBEJS_DB_NAME', 'analytics'], ['GITHUB_TOKEN', 'ghp_x'], ['db_password_hint', 'ask ops']);
    for my $n (1 .. 24) { set_env($d0, sprintf('FEATURE_FLAG_%02d', $n), $n % 2 ? 'on' : 'off') }
    set_env($S->{deployments}{ $ids[1] }, 'CUBEJS_DB_TYPE', 'snowflake');
    set_env($S->{deployments}{ $ids[1] }, 'SNOWFLAKE_CREDENTIALS', 'xyz');

    # branches: add shared and personal ones
    for my $dep (map { $S->{deployments}{$_} } @ids) {
        add_branch($dep, 'feature-revenue', 'main', 'shared', undef, 0);
        add_branch($dep, 'qa-staging', 'main', 'shared', undef, 1);
        my $pb = add_branch($dep, 'dev-dinesh', 'main', 'personal', $dev, 0);
        $pb->{devMode} = 1;
        add_branch($dep, 'experiments', 'feature-revenue', 'shared', undef, 0);
    }

    # workspace content
    for my $dep (map { $S->{deployments}{$_} } @ids) {
        my $did = $dep->{id};
        if ($did eq $ids[2]) {    # at its limit: 2 workbooks, limit 2
            add_workbook($did, 'Capped One', undef, $admin, reports => 1);
            add_workbook($did, 'Capped Two', undef, $bi, reports => 1, published => 1);
            next;
        }
        my $f1 = add_folder($did, 'Finance', undef, $admin);
        my $f2 = add_folder($did, 'Quarterly', $f1->{id}, $admin);
        my $f3 = add_folder($did, 'Archive 2023', $f2->{id}, $admin);
        my $fb = add_folder($did, "Bea's corner", undef, $bi);
        my $fp = add_folder($did, 'Board only', undef, $admin);
        $fp->{restricted} = 1;
        add_workbook($did, 'Revenue overview', undef, $admin, reports => 2, published => 1, slug => 'revenue-overview', shared => 1);
        add_workbook($did, 'Cohort retention', $f1->{id}, $admin, reports => 2, published => 1);
        add_workbook($did, 'Q3 deep-dive', $f2->{id}, $dev, reports => 1);
        add_workbook($did, 'Old KPIs', $f3->{id}, $admin, reports => 1);
        add_workbook($did, "Bea's sandbox", $fb->{id}, $bi, reports => 1, published => 1);
        add_workbook($did, 'Board pack', $fp->{id}, $admin, reports => 1);
        add_workbook($did, "Café Zürich — ventes 売上", undef, $bi, reports => 1, slug => 'cafe-zurich');
        add_workbook($did, 'Draft ideas', undef, $dev, reports => 0, shared => 1);
        for my $n (1 .. 22) { add_workbook($did, sprintf('Scratch %02d', $n), undef, $dev, reports => 0) }
    }

    # audit events
    my @ev = (
        [ 'Logged in', 'ada.admin@example.test', 0, { method => 'password' } ],
        [ 'Logged in', 'dev.dinesh@example.test', 0, { method => 'sso' } ],
        [ 'Deployment updated', 'ada.admin@example.test', 0, { field => 'releaseChannel', value => 'latest' } ],
        [ 'Environment variable changed', 'ada.admin@example.test', 0, { name => 'CUBEJS_DB_PASS', value => '[HIDDEN]' } ],
        [ 'Workbook created', 'bi.bea@example.test', 1, { workbook => 'Bea sandbox' } ],
        [ 'Logged in', 'view.victor@example.test', 1, { method => 'password' } ],
        [ 'User invited', 'ada.admin@example.test', 1, { invited => 'new.person@example.test' } ],
        [ 'Logged out', 'dev.dinesh@example.test', 3, {} ],
    );
    my $k = 0;
    for my $e (@ev) {
        audit($e->[0], $e->[1], $S->{deployments}{ $ids[ $e->[2] ] }{name}, $e->[3], time() - 86400 * (20 - 2 * $k++));
    }

    # embed tenant, user attributes, integrations
    my $tid = next_id('tenant');
    $S->{tenants}{$tid} = { id => $tid, name => 'Acme Corp', externalId => 'acme', createdAt => $t0, users => {}, groups => {} };
    $S->{tenants}{$tid}{users}{'acme-user-1'} = { id => 'acme-user-1', email => 'ops@acme.test', name => 'Acme Ops', createdAt => $t0 };
    my $aid = next_id('attr');
    $S->{attrs}{$aid} = { id => $aid, name => 'region', type => 'string', createdAt => $t0 };
    $S->{attr_values}{$admin}{$aid} = 'EMEA';
    return $S;
}

sub user_by_key {
    my $k = shift;
    for my $u (values %{ $S->{users} }) { return $u if ($u->{tokenKey} // '') eq $k }
    return undef;
}

sub audit {
    my ($event, $email, $depname, $details, $t) = @_;
    push @{ $S->{audit} }, { id => next_id('event'), ts => $t // time(), event => $event, email => $email,
                             deployment => $depname // '', ip => '10.0.' . int(rand(200)) . '.' . int(rand(200)),
                             details => $details // {} };
}

sub new_deployment {
    my ($name, $cloud, $region, $t) = @_;
    my $id = "" . next_id('deployment');
    my $dep = { id => $id, name => $name, created_at => $t // time(), cloudProvider => $cloud, region => $region,
                releaseChannel => 'latest', releaseChannelVersion => '1.7.22', releaseChannelVersionHold => 0,
                template => 'default', templateVariables => { warehouse => 'main' }, defaultLaunchpadViewGroup => undef,
                launchpadTabs => [], creation_method => 'github', deploy_mode => 'git', creationStep => 'done',
                env => [], env_seq => 0, branches => [], files => {}, github => undef };
    $S->{deployments}{$id} = $dep;
    push @{ $S->{dep_order} }, $id;
    my $main = add_branch($dep, 'main', undef, 'production', undef, 0);
    $dep->{files}{main} = {
        'model/cubes/orders.yml' => "cubes:\n  - name: orders\n    sql_table: public.orders\n    measures:\n      - name: count\n        type: count\n",
        'model/cubes/customers.yml' => "cubes:\n  - name: customers\n    sql_table: public.customers\n",
        'cube.js' => "module.exports = {\n  contextToAppId: ({ securityContext }) => `app_\${securityContext.tenant}`,\n};\n",
    };
    $dep->{prod_env_id} = uuid4();
    return $dep;
}

sub add_branch {
    my ($dep, $name, $parent, $kind, $owner, $staging) = @_;
    my $bd = { id => next_id('branch'), name => $name, parentBranch => $parent // '', kind => $kind, owner => $owner,
              lastHash => substr(sha1_hex($name . rand()), 0, 40), staging => $staging ? 1 : 0,
              stg_env_id => uuid4(), dev_env_id => uuid4(), devMode => 0, createdAt => time() };
    push @{ $dep->{branches} }, $bd;
    $dep->{files}{$name} //= { %{ $dep->{files}{ $parent // 'main' } // {} } } if $name ne 'main';
    return $bd;
}

sub set_env {
    my ($dep, $name, $value) = @_;
    my ($e) = grep { $_->{name} eq $name } @{ $dep->{env} };
    if ($e) { $e->{value} = $value; $e->{seq} = ++$dep->{env_seq} }
    else { push @{ $dep->{env} }, { name => $name, value => $value, seq => ++$dep->{env_seq} } }
}

sub find_branch {
    my ($dep, %by) = @_;
    for my $bd (@{ $dep->{branches} }) {
        return $bd if defined $by{id} && $bd->{id} == $by{id};
        return $bd if defined $by{name} && $bd->{name} eq $by{name};
    }
    return undef;
}

sub add_folder {
    my ($did, $name, $parent, $owner) = @_;
    my $id = next_id('folder');
    my $t = time() - 86400 * 10 + $id;
    my $siblings = grep { $_->{deploymentId} eq $did && ($_->{parentId} // 0) == ($parent // 0) } values %{ $S->{folders} };
    return $S->{folders}{$id} = { id => $id, deploymentId => $did, name => $name, parentId => $parent, position => $siblings,
                                  createdBy => $owner, updatedBy => $owner, createdAt => $t, updatedAt => $t, restricted => 0 };
}

sub add_report {
    my ($wb, $name, $owner) = @_;
    my $id = next_id('report');
    my $t = time() - 86400 * 5 + $id;
    return $S->{reports}{$id} = { id => $id, deploymentId => $wb->{deploymentId}, name => $name, workbookId => $wb->{id},
        folderId => $wb->{folderId}, createdBy => $owner, createdAt => $t, updatedAt => $t, kind => 'table',
        sqlQuery => 'SELECT status, COUNT(*) FROM orders GROUP BY 1', pythonCode => undef,
        publicId => 'rpt_' . substr(sha1_hex("r$id" . rand()), 0, 16), meta => {}, lastViewedAt => $t + 100 };
}

sub add_workbook {
    my ($did, $name, $folder, $owner, %o) = @_;
    my $id = next_id('workbook');
    my $t = time() - 86400 * 7 + $id * 60;
    my $wb = $S->{workbooks}{$id} = { id => $id, deploymentId => $did, name => $name, folderId => $folder, createdBy => $owner,
        createdAt => $t, updatedAt => $t, meta => { source => 'seed' }, calculatedFields => {}, isFavorite => 0,
        slug => $o{slug}, dashboardDraft => undef, dashboardPublished => undef, dashboard => undef, shared => $o{shared} ? 1 : 0 };
    my @reps = map { add_report($wb, "$name — report $_", $owner) } 1 .. ($o{reports} // 0);
    if (@reps) {
        my $cfg = { kind => 'CLASSIC', title => $name, description => "Dashboard of $name",
            widgets => [ map { { id => "w$_", type => 'CHART', position => { x => 0, y => ($_ - 1) * 4, w => 6, h => 4 },
                                 config => { reportId => $reps[ $_ - 1 ]{id} } } } 1 .. @reps ],
            layout => { rowHeight => 30, cols => { lg => 12, md => 10, sm => 6, xs => 4, xxs => 2 } }, settings => {}, theme => {} };
        $wb->{dashboardDraft} = clone_data($cfg);
        if ($o{published}) {
            $wb->{dashboardPublished} = clone_data($cfg);
            publish_dashboard($wb, $cfg, $owner, \@reps);
        }
    }
    return $wb;
}

sub publish_dashboard {
    my ($wb, $cfg, $owner, $reps, %o) = @_;
    my $did = next_id('dashboard');
    $wb->{dashboard} = { id => $did, publicId => 'db_' . substr(sha1_hex("d$did" . rand()), 0, 20), deploymentId => $wb->{deploymentId},
        workbookId => $wb->{id}, status => 'published', allowEmbed => $o{allowEmbed} // 1, config => clone_data($cfg),
        versionNumber => $o{versionNumber} // 1, versionId => next_id('version'), createdBy => $owner,
        title => $cfg->{title}, description => $cfg->{description}, restrictDataDownload => 0,
        reportSnapshots => [ map { snapshot_of($_) } @$reps ] };
    $S->{dashboards}{ $wb->{dashboard}{publicId} } = $wb->{id};
    return $wb->{dashboard};
}

sub snapshot_of {
    my $r = shift;
    return { id => next_id('snapshot'), reportId => $r->{id}, versionNumber => 1, kind => $r->{kind}, name => $r->{name},
             title => $r->{name}, description => undef, sqlQuery => $r->{sqlQuery}, pythonCode => $r->{pythonCode},
             spec => undef, meta => {}, isSourceReport => 0 };
}

# ---------- access ----------
# levels: 0 none, 1 read, 2 edit, 3 manage
sub folder_chain {
    my $fid = shift;
    my @chain;
    my %seen;
    while (defined $fid && $S->{folders}{$fid} && !$seen{$fid}++) {
        push @chain, $S->{folders}{$fid};
        $fid = $S->{folders}{$fid}{parentId};
    }
    return @chain;    # nearest first
}

sub access {
    my ($user, $obj, $kind) = @_;
    my $role = $user->{role};
    return 3 if $role eq 'ADMIN';
    my @chain = folder_chain($kind eq 'FOLDER' ? $obj->{id} : $obj->{folderId});
    my $owner = ($obj->{createdBy} // 0) == $user->{id};
    my $restricted = $kind eq 'FOLDER' ? $obj->{restricted} : 0;
    $restricted ||= $_->{restricted} for @chain;
    my $owns_ancestor = grep { ($_->{createdBy} // 0) == $user->{id} } @chain;
    return 3 if $owner || $owns_ancestor;
    return 0 if $restricted;
    return 2 if $role eq 'DEVELOPER';
    return 1;
}

sub root_edit { my $u = shift; return role_rank($u->{role}) >= role_rank('AI_BI_USER') }

sub folder_edit {
    my ($u, $fid) = @_;
    return root_edit($u) unless defined $fid;
    my $f = $S->{folders}{$fid} or return 0;
    return role_rank($u->{role}) >= 2 && access($u, $f, 'FOLDER') >= 2;
}

# ---------- serializers ----------
sub owner_obj {
    my $uid = shift;
    my $u = defined $uid ? $S->{users}{$uid} : undef;
    return undef unless $u;
    return { id => I($u->{id}), email => S($u->{email}), firstName => S($u->{firstName}), picture => S($u->{picture}) };
}

sub folder_path {
    my $fid = shift;
    return [] unless defined $fid;
    my @chain = folder_chain($fid);
    shift @chain;    # ancestors of the containing folder only, nearest first
    return [ map { { id => I($_->{id}), name => S($_->{name}) } } @chain ];
}

sub ser_dashboard {
    my $d = shift;
    return undef unless $d;
    return { id => I($d->{id}), publicId => S($d->{publicId}), deploymentId => I($d->{deploymentId}), workbookId => I($d->{workbookId}),
             status => S($d->{status}), allowEmbed => B($d->{allowEmbed}), config => $d->{config} // {},
             versionNumber => I($d->{versionNumber}), versionId => I($d->{versionId}),
             reportSnapshots => [ map { ser_snapshot($_) } @{ $d->{reportSnapshots} } ], createdBy => I($d->{createdBy}),
             title => S($d->{title}), description => S($d->{description}), fromSharedWorkspace => B($d->{fromShared}),
             restrictDataDownload => B($d->{restrictDataDownload}), useBoardDashboards => FALSE };
}

sub ser_snapshot {
    my $s = shift;
    return { id => I($s->{id}), reportId => I($s->{reportId}), versionNumber => I($s->{versionNumber}), kind => S($s->{kind}),
             name => S($s->{name}), title => S($s->{title}), description => S($s->{description}), sqlQuery => S($s->{sqlQuery}),
             pythonCode => S($s->{pythonCode}), spec => $s->{spec}, meta => $s->{meta},
             isSourceReport => B($s->{isSourceReport}) };
}

sub ser_workbook {
    my ($w, $user) = @_;
    return { id => I($w->{id}), deploymentId => I($w->{deploymentId}), name => S($w->{name}), type => 'WORKBOOK',
             meta => $w->{meta} // {}, calculatedFields => $w->{calculatedFields} // {}, createdAt => ts_iso($w->{createdAt}),
             updatedAt => ts_iso($w->{updatedAt}), createdBy => I($w->{createdBy}), userId => I($w->{createdBy}),
             user => owner_obj($w->{createdBy}), folderId => I($w->{folderId}), folderPath => folder_path($w->{folderId}),
             isFavorite => B($w->{isFavorite}), slug => S($w->{slug}), dashboardDraft => $w->{dashboardDraft},
             dashboardPublished => $w->{dashboardPublished}, publishedDashboard => ser_dashboard($w->{dashboard}) };
}

sub ser_report_wb {    # a report as a Workbook record (type REPORT)
    my $r = shift;
    return { id => I($r->{id}), deploymentId => I($r->{deploymentId}), name => S($r->{name}), type => 'REPORT',
             meta => $r->{meta} // {}, calculatedFields => {}, createdAt => ts_iso($r->{createdAt}), updatedAt => ts_iso($r->{updatedAt}),
             createdBy => I($r->{createdBy}), userId => I($r->{createdBy}), user => owner_obj($r->{createdBy}),
             folderId => I($r->{folderId}), folderPath => folder_path($r->{folderId}), isFavorite => FALSE, slug => undef,
             dashboardDraft => undef, dashboardPublished => undef, publishedDashboard => undef };
}

sub ser_folder_wb {    # a folder as a Workbook record (type FOLDER)
    my $f = shift;
    return { id => I($f->{id}), deploymentId => I($f->{deploymentId}), name => S($f->{name}), type => 'FOLDER',
             meta => {}, calculatedFields => {}, createdAt => ts_iso($f->{createdAt}), updatedAt => ts_iso($f->{updatedAt}),
             createdBy => I($f->{createdBy}), userId => I($f->{createdBy}), user => owner_obj($f->{createdBy}),
             folderId => I($f->{parentId}), folderPath => folder_path($f->{parentId}), isFavorite => FALSE, slug => undef,
             dashboardDraft => undef, dashboardPublished => undef, publishedDashboard => undef };
}

sub ser_folder {
    my $f = shift;
    return { id => I($f->{id}), name => S($f->{name}), position => I($f->{position}), deploymentId => I($f->{deploymentId}),
             createdAt => ts_iso($f->{createdAt}), updatedAt => ts_iso($f->{updatedAt}), type => 'FOLDER',
             parentId => I($f->{parentId}), createdBy => I($f->{createdBy}), updatedBy => I($f->{updatedBy}),
             user => owner_obj($f->{createdBy}), folderPath => folder_path($f->{parentId}) };
}

sub ser_report {
    my $r = shift;
    return { id => I($r->{id}), name => S($r->{name}), deploymentId => I($r->{deploymentId}), workbookId => I($r->{workbookId}),
             folderId => I($r->{folderId}), publicId => S($r->{publicId}), kind => S($r->{kind}), sqlQuery => S($r->{sqlQuery}),
             pythonCode => S($r->{pythonCode}), createdBy => I($r->{createdBy}), createdAt => ts_iso($r->{createdAt}),
             updatedAt => ts_iso($r->{updatedAt}), lastViewedAt => ts_iso($r->{lastViewedAt}), meta => $r->{meta} // {} };
}

sub ser_dep_list {
    my $d = shift;
    return { id => S($d->{id}), name => S($d->{name}), created_at => ts_iso($d->{created_at}) };
}

sub ser_dep_full {
    my $d = shift;
    my ($v) = grep { $_->{version} eq $d->{releaseChannelVersion} } versions_catalog();
    return { id => S($d->{id}), name => S($d->{name}), created_at => ts_iso($d->{created_at}), cloudProvider => S($d->{cloudProvider}),
             region => S($d->{region}), releaseChannel => S($d->{releaseChannel}), releaseChannelVersion => S($d->{releaseChannelVersion}),
             releaseChannelVersionHold => B($d->{releaseChannelVersionHold}), image => S($v ? $v->{image} : undef),
             template => S($d->{template}), templateVariables => $d->{templateVariables} // {},
             defaultLaunchpadViewGroup => $d->{defaultLaunchpadViewGroup}, launchpadTabs => $d->{launchpadTabs} // [],
             creation_method => S($d->{creation_method}), deploy_mode => S($d->{deploy_mode}), creationStep => S($d->{creationStep}),
             deploymentUrl => 'https://d' . $d->{id} . '.platform.example.test' };
}

sub ser_branch {
    my $bd = shift;
    return { id => I($bd->{id}), name => S($bd->{name}), parentBranch => S($bd->{parentBranch} // ''), lastHash => S($bd->{lastHash}),
             isStagingEnvironmentEnabled => B($bd->{staging}) };
}

1;
