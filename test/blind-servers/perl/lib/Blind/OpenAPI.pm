package Blind::OpenAPI;
# Builds the OpenAPI 3.1 document served at GET /api/v1/spec from the route table.
use strict;
use utf8;
use warnings;
use Blind::Util;
use Blind::App;

sub str  { { type => 'string', @_ } }
sub int_ { { type => 'integer', @_ } }
sub bool { { type => 'boolean' } }
sub nul  { my $s = shift; return { %$s, type => [ $s->{type}, 'null' ] } }
sub ref_ { { '$ref' => "#/components/schemas/$_[0]" } }
sub nref { { oneOf => [ ref_($_[0]), { type => 'null' } ] } }
sub obj  { my ($props, @req) = @_; return { type => 'object', properties => $props, (@req ? (required => \@req) : ()) } }
sub anyobj { { type => 'object', additionalProperties => JSON::PP::true } }
sub arr  { { type => 'array', items => $_[0] } }
my $DT = { type => 'string', format => 'date-time', description => 'UTC, second precision, Z suffix' };
sub bp { my $x = shift; return obj({ map { $_ => $x } qw(lg md sm xs xxs) }) }

sub list_of { my $item = shift; return obj({ items => arr($item), data => arr($item), pageInfo => ref_('PageInfo') }, qw(items pageInfo)) }
sub wrapped { my $s = shift; return obj({ data => $s }, 'data') }

sub schemas {
    my $pos = obj({ x => int_(), y => int_(), w => int_(), h => int_() }, qw(x y w h));
    my %s = (
        Error => obj({ error => str(), code => str(description => 'present on 409 upsert_branch_changed'),
                       message => str(description => 'build API only; same text as error') }, 'error'),
        PageInfo => obj({ hasNextPage => bool(), hasPreviousPage => bool(),
                          startCursor => nul(str(description => 'opaque standard-base64 cursor; omitted on an empty page')),
                          endCursor => nul(str()) }, qw(hasNextPage hasPreviousPage)),
        Pagination => obj({ offset => int_(minimum => 0), limit => int_(minimum => 0), total => int_(minimum => 0) }, qw(offset limit total)),
        Deployment => obj({ id => str(pattern => '^[0-9]+$'), name => str(), created_at => $DT }, qw(id name created_at)),
        DeploymentList => obj({ data => obj({ deployments => arr(ref_('Deployment')) }, 'deployments'), pagination => ref_('Pagination') }, qw(data pagination)),
        DeploymentDetail => obj({ id => str(), name => str(), created_at => $DT, cloudProvider => str(enum => [qw(managed aws gcp)]), region => str(),
            releaseChannel => str(enum => [qw(latest release)]), releaseChannelVersion => str(), releaseChannelVersionHold => bool(), image => str(),
            template => str(), templateVariables => anyobj(), defaultLaunchpadViewGroup => nul(str()), launchpadTabs => arr({}),
            creation_method => str(enum => [qw(upload managed github ssh)]), deploy_mode => str(enum => [qw(git cli)]), creationStep => str(),
            deploymentUrl => str() }, qw(id name created_at)),
        DeploymentUpdate => obj({ cloudProvider => str(enum => [qw(managed aws gcp)]), region => str(), releaseChannel => str(enum => [qw(latest release)]),
            releaseChannelVersion => str(description => '1.7.20, v1.7.20 or cubejs/cube:v1.7.20; must be listed by the versions endpoint'),
            releaseChannelVersionHold => bool(), template => str(), templateVariables => anyobj(), defaultLaunchpadViewGroup => nul(str()),
            launchpadTabs => arr({}), creation_method => str(enum => [qw(upload managed github ssh)]), deploy_mode => str(enum => [qw(git cli)]) }),
        DeploymentCreate => obj({ name => str(), cloudProvider => str(enum => [qw(managed aws gcp)]), region => str(),
            creation_method => str(enum => [qw(upload managed github ssh)]), deploy_mode => str(enum => [qw(git cli)]) }, 'name'),
        ApiCredential => obj({ type => str(enum => [qw(rest sql graphql)]), version => int_(), database => str(), host => str(), port => int_(), url => str() }),
        Environment => obj({ id => str(format => 'uuid'), type => str(enum => [qw(production staging development)]), branch => str(), user => str(),
                             api_credentials => arr(ref_('ApiCredential')) }, qw(id type branch user api_credentials)),
        EnvironmentList => obj({ items => arr(ref_('Environment')), pageInfo => ref_('PageInfo'), data => { %{ arr(ref_('Environment')) }, deprecated => JSON::PP::true },
                                 pagination => { oneOf => [ ref_('Pagination'), { type => 'null' } ], deprecated => JSON::PP::true } }, qw(items pageInfo data pagination)),
        MetaTokenRequest => obj({ security_context => anyobj(), expires_in => { type => 'number', minimum => 1, maximum => 2592000, default => 86400 } }, 'security_context'),
        MetaTokenResponse => wrapped(obj({ token => str(), created_at => $DT, expires_at => $DT, security_context => anyobj() }, qw(token created_at expires_at))),
        Version => obj({ releaseChannelVersion => str(), version => str(), releaseChannel => str(), isLatestInChannel => bool(), isCurrent => bool() },
                       qw(releaseChannelVersion version releaseChannel isLatestInChannel isCurrent)),
        VersionList => obj({ data => arr(ref_('Version')) }, 'data'),
        EnvVar => obj({ name => str(), value => str(description => '[ENCRYPTED] when the name contains PASS, SECRET, TOKEN, KEY or CREDENTIAL (case-sensitive)') }, qw(name value)),
        EnvVarList => obj({ items => arr(ref_('EnvVar')), data => { %{ arr(ref_('EnvVar')) }, deprecated => JSON::PP::true }, pageInfo => ref_('PageInfo') }, qw(items data pageInfo)),
        EnvVarsPut => obj({ env_variables => arr(obj({ name => str(pattern => '^[A-Za-z_][A-Za-z0-9_]*$'), value => str() }, qw(name value))) }, 'env_variables'),
        Branch => obj({ id => int_(), name => str(), parentBranch => str(), lastHash => str(), isStagingEnvironmentEnabled => bool(),
                        kind => str(enum => [qw(production shared personal)], description => 'list only') }, qw(id name parentBranch lastHash isStagingEnvironmentEnabled)),
        BranchWrapped => wrapped(ref_('Branch')),
        BranchList => list_of(ref_('Branch')),
        StagingToggle => obj({ enabled => bool(), branchName => str(), branchId => int_(description => 'takes precedence over branchName') }, 'enabled'),
        BranchCreate => obj({ name => str(), from => str(), activate => bool() }, 'name'),
        ResourceOwner => obj({ id => int_(), email => str(), firstName => nul(str()), picture => nul(str()) }, qw(id email)),
        FolderPathEntry => obj({ id => int_(), name => str() }, qw(id name)),
        DashboardPosition => $pos,
        DashboardWidget => obj({ id => str(), type => str(enum => [qw(CHART TEXT FILTER AI TIME_GRAIN PARENT SPACER DIVIDER CONTAINER)]),
            position => ref_('DashboardPosition'), responsiveLayouts => nul(bp({ oneOf => [ ref_('DashboardPosition'), { type => 'null' } ] })),
            config => nul(anyobj()), style => nul(anyobj()) }, qw(id type position)),
        DashboardLayout => obj({ breakpoints => nul(bp(nul(int_()))), cols => nul(bp(nul(int_()))), containerPadding => nul(arr(int_())),
                                 margin => nul(arr(int_())), rowHeight => nul(int_()) }),
        DashboardAppSource => obj({ entry => nul(str(maxLength => 255)), files => nul({ type => 'object', additionalProperties => str() }), html => nul(str()),
            manifest => nul(obj({ dependencies => nul({ type => 'object', additionalProperties => str() }), version => nul(int_()) })) }),
        DashboardConfig => obj({ kind => { type => [qw(string null)], enum => [ 'CLASSIC', 'APP', undef ] }, title => nul(str()), description => nul(str()),
            widgets => nul(arr(ref_('DashboardWidget'))), layout => nref('DashboardLayout'), settings => nul(anyobj()), theme => nul(anyobj()),
            app => nref('DashboardAppSource') }),
        ReportSnapshot => obj({ id => int_(), reportId => int_(), versionNumber => int_(), kind => { type => [qw(string null)], enum => [ qw(vega table kpi html map), undef ] },
            name => nul(str()), title => nul(str()), description => nul(str()), sqlQuery => nul(str()), pythonCode => nul(str()),
            spec => { type => [qw(string object null)] }, meta => nul(anyobj()), isSourceReport => nul(bool()) }, qw(id reportId versionNumber)),
        Dashboard => obj({ id => int_(), publicId => str(), deploymentId => int_(), workbookId => int_(), status => str(enum => [qw(draft published archived)]),
            allowEmbed => bool(), config => ref_('DashboardConfig'), versionNumber => int_(), versionId => int_(), reportSnapshots => arr(ref_('ReportSnapshot')),
            createdBy => nul(int_()), title => nul(str()), description => nul(str()), fromSharedWorkspace => nul(bool()), restrictDataDownload => nul(bool()),
            useBoardDashboards => nul(bool()) }, qw(id publicId deploymentId workbookId status allowEmbed config versionNumber versionId reportSnapshots)),
        Workbook => obj({ id => int_(), deploymentId => int_(), name => str(), type => str(enum => [qw(FOLDER WORKBOOK REPORT)]), meta => anyobj(),
            calculatedFields => anyobj(), createdAt => $DT, updatedAt => $DT, createdBy => int_(), userId => nul({ type => 'number' }),
            user => nref('ResourceOwner'), folderId => nul({ type => 'number' }),
            folderPath => arr(ref_('FolderPathEntry')), isFavorite => nul(bool()), slug => nul(str()), dashboardDraft => nref('DashboardConfig'),
            dashboardPublished => nref('DashboardConfig'), publishedDashboard => nref('Dashboard') },
            qw(id deploymentId name type meta calculatedFields createdAt updatedAt)),
        WorkbooksListResponse => obj({ items => arr(ref_('Workbook')), data => { %{ arr(ref_('Workbook')) }, deprecated => JSON::PP::true },
            count => nul(int_(minimum => 0)), pageInfo => nref('PageInfo') }, qw(items data)),
        WorkbookUpsert => obj({ name => str(), folderId => nul(int_(minimum => 0)), meta => anyobj() }),
        DuplicateRequest => obj({ shared => bool() }),
        ItemRef => obj({ type => str(enum => [qw(WORKBOOK REPORT FOLDER)]), id => int_() }, qw(type id)),
        ItemFailure => obj({ type => str(enum => [qw(WORKBOOK REPORT FOLDER)]), id => int_(),
                             error => obj({ message => str(), status => int_(enum => [ 400, 403, 404 ]) }, qw(message status)) }, qw(type id error)),
        BulkMoveRequest => obj({ items => { %{ arr(ref_('ItemRef')) }, minItems => 1 }, folderId => nul(int_(minimum => 0)) }, 'items'),
        BulkMoveResponse => obj({ moved => arr(ref_('Workbook')), failed => arr(ref_('ItemFailure')) }, qw(moved failed)),
        BulkDeleteRequest => obj({ items => { %{ arr(ref_('ItemRef')) }, minItems => 1 } }, 'items'),
        BulkDeleteResponse => obj({ deleted => arr(ref_('ItemRef')), failed => arr(ref_('ItemFailure')) }, qw(deleted failed)),
        Folder => obj({ id => int_(), name => str(), position => int_(), deploymentId => int_(), createdAt => $DT, updatedAt => $DT, type => str(enum => ['FOLDER']),
            parentId => nul(int_()), createdBy => nul(int_()), updatedBy => nul(int_()), user => nref('ResourceOwner'), folderPath => arr(ref_('FolderPathEntry')) },
            qw(id name position deploymentId createdAt updatedAt type)),
        FolderList => obj({ items => arr(ref_('Folder')), data => arr(ref_('Folder')), count => int_(), pageInfo => ref_('PageInfo') }, qw(items pageInfo)),
        FolderWrapped => wrapped(ref_('Folder')),
        FolderCreate => obj({ name => str(), parentId => nul(int_()), position => nul(int_()) }, 'name'),
        Report => obj({ id => int_(), name => str(), deploymentId => int_(), workbookId => int_(), folderId => nul(int_()), publicId => str(), kind => nul(str()),
            sqlQuery => nul(str()), pythonCode => nul(str()), createdBy => nul(int_()), createdAt => $DT, updatedAt => $DT, lastViewedAt => $DT, meta => anyobj() }),
        ReportList => obj({ items => arr(ref_('Report')), data => arr(ref_('Report')), count => int_(), pageInfo => ref_('PageInfo') }, qw(items pageInfo)),
        ReportWrapped => wrapped(ref_('Report')),
        ReportUpsert => obj({ name => str(), workbookId => int_(description => 'required on create'), sqlQuery => nul(str()), pythonCode => nul(str()),
                              kind => nul(str(enum => [qw(vega table kpi html map)])) }),
        PlacementAddress => obj({ placementId => str(), externalWorkbookId => str(), sheetName => str(), anchorCell => str(pattern => '^[A-Za-z]{1,3}[0-9]+$') }),
        EmbedAccessPut => obj({ action => str(enum => [qw(read none)]), tenantId => nul(int_()) }, 'action'),
        AllowEmbedPatch => obj({ allowEmbed => bool() }, 'allowEmbed'),
        PythonRun => obj({ reportId => int_(), filters => arr(anyobj()) }, 'reportId'),
        AppConfigWrapped => wrapped(obj({ appTheme => anyobj(), applyThemeGlobally => bool(), creatorMode => bool(), embedding => anyobj(),
                                          sheetsUi => bool(), timezoneSettings => anyobj() }, qw(appTheme applyThemeGlobally creatorMode embedding sheetsUi timezoneSettings))),
        Wrapped => wrapped(anyobj()),
        GenericList => list_of(anyobj()),
        CSV => { type => 'string', description => 'text/csv; header timestamp,event,user_email,deployment,ip_address,details' },
        TenantSettings => obj({ auditLogEnabled => bool(), defaultTimezone => str(), allowPublicSharing => bool(), sessionTimeoutMinutes => int_(minimum => 5) }),
        UserCreate => obj({ email => str(), firstName => nul(str()), lastName => nul(str()), role => str(enum => [qw(ADMIN DEVELOPER AI_BI_USER VIEWER)]) }, 'email'),
        UserUpdate => obj({ firstName => nul(str()), lastName => nul(str()), role => str(enum => [qw(ADMIN DEVELOPER AI_BI_USER VIEWER)]), status => str(enum => [qw(ACTIVE DEACTIVATED)]) }),
        UserBulk => obj({ action => str(enum => [qw(DEACTIVATE ACTIVATE DELETE)]), userIds => arr(int_()) }, qw(action userIds)),
        UserBulkResponse => obj({ succeeded => arr(int_()), failed => arr(obj({ id => int_(), error => obj({ message => str(), status => int_() }) })) }, qw(succeeded failed)),
        UserAttribute => obj({ name => str(), type => str(enum => [qw(string number boolean string_array number_array)]) }),
        AttributeValues => obj({ values => arr(obj({ attributeId => int_(), value => {} }, 'attributeId')) }, 'values'),
        Integration => anyobj(),
        Notification => obj({ name => str(), workbookId => int_(), schedule => str(description => '5-field cron'), recipients => arr(str()),
            filters => arr(obj({ member => str(), operator => str(enum => [qw(equals notEquals contains notContains gt gte lt lte inDateRange beforeDate afterDate is_empty is_not_empty)]),
                                 values => arr(str()) }, qw(member operator))),
            timeGrain => nul(str(enum => [qw(hour day week month quarter year)])), enabled => bool() }, qw(name workbookId schedule recipients)),
        EmbedTenant => obj({ name => str(), externalId => nul(str()) }),
        EmbedUser => obj({ id => str(), email => nul(str()), name => nul(str()) }, 'id'),
        EmbedGroup => obj({ name => str() }, 'name'),
        EmbedMember => obj({ userId => str() }, 'userId'),
        DbtSyncStart => obj({ branchName => str(), ref => nul(str()) }),
        FilesPut => obj({ branchName => str(), files => arr(obj({ path => str(), content => str() }, qw(path content))) }, 'files'),
        FilesRename => obj({ branchName => str(), files => arr(obj({ oldPath => str(), newPath => str() }, qw(oldPath newPath))) }, 'files'),
        UploadStart => obj({ branchName => str() }),
        UploadFile => obj({ uploadId => str(), path => str(), content => str(), encoding => str(enum => ['utf8', 'base64']) }, qw(uploadId path content)),
        UploadFinish => obj({ uploadId => str() }, 'uploadId'),
        CommitRequest => obj({ branchName => str(), message => str() }, 'message'),
        BranchRef => obj({ branchName => str() }),
        MergeRequest => obj({ branchName => str(), into => str(description => 'defaults to the parent branch') }, 'branchName'),
        GithubConnect => obj({ repository => str(pattern => '^[^/]+/[^/]+$'), branch => str() }, 'repository'),
        OpenApiDocument => anyobj(),
    );
    return \%s;
}

my %PARAM = (
    offset => { schema => int_(minimum => 0, default => 0) },
    limit  => { schema => int_(minimum => 1, default => 20) },
    first  => { schema => int_(minimum => 1), description => 'page size; default 20 (environments: everything); no maximum' },
    after  => { schema => str(), description => 'opaque cursor (endCursor of the previous page)' },
    type   => { schema => str(enum => [qw(production staging development)]) },
    folderId => { schema => { type => [qw(integer null)], minimum => 0 }, description => 'omitted, 0 or null: workspace root' },
    parentId => { schema => { type => [qw(integer null)], minimum => 0 } },
    start  => { schema => str(format => 'date') }, end => { schema => str(format => 'date'), description => 'inclusive' },
    sortBy => { schema => str(enum => [qw(createdAt updatedAt lastViewedAt name)]) },
    source => { schema => str(enum => [qw(production dev)]) },
    container => { schema => str(enum => [qw(INIT MAIN vector api-proxy cubejs-server)]) },
    status => { schema => str(enum => [qw(queued running succeeded failed cancelled)]) },
    trigger => { schema => str(enum => [qw(api schedule manual)]) },
    removeOnUpstream => { schema => bool() },
    paths => { schema => str(), description => 'comma-separated file paths' },
);

sub document {
    my %paths;
    for my $r (@Blind::App::ROUTES) {
        my $m = $r->{meta};
        my @pp;
        for my $seg (@{ $r->{segs} }) {
            next unless $seg =~ /^\{(\w+)\}$/;
            my $name = $1;
            my $isstr = $name =~ /^(deploymentId|slug|publicId|environmentId|owner|repo|userId)$/;
            $isstr = 0 if $name eq 'userId' && $r->{path} =~ m{user-attribute-values};
            push @pp, { name => $name, in => 'path', required => JSON::PP::true, schema => ($isstr ? str() : int_()) };
        }
        my @qp = map { { name => $_, in => 'query', required => JSON::PP::false, %{ $PARAM{$_} // { schema => str() } } } } @{ $m->{params} || [] };
        if ($r->{path} eq '/api/v1/deployments/{deploymentId}/environments') { $_->{schema} = int_(minimum => 0) for grep { $_->{name} eq 'limit' } @qp }
        my $ok = $m->{ok} // 200;
        my %resp;
        if ($ok == 204) { $resp{204} = { description => 'No Content' } }
        elsif (($m->{resp} // '') eq 'CSV') {
            $resp{200} = { description => 'CSV attachment', content => { 'text/csv' => { schema => ref_('CSV') } } };
        } else {
            $resp{$ok} = { description => 'Success', content => { 'application/json' => { schema => ref_($m->{resp} // 'Wrapped') } } };
            $resp{200} //= { description => 'Existing item updated', content => { 'application/json' => { schema => ref_($m->{resp} // 'Wrapped') } } }
              if $ok == 201 && $r->{path} =~ /by-public-id|connect-workbook/;
        }
        my $err = sub { { description => $_[0], content => { 'application/json' => { schema => ref_('Error') } } } };
        $resp{400} = $err->('Malformed or invalid request');
        $resp{401} = $err->('Missing, malformed or unknown API key');
        $resp{403} = $err->('Not allowed');
        $resp{404} = $err->('Not found');
        $resp{409} = $err->('Concurrent change (code upsert_branch_changed); never produced by this server since requests are applied atomically')
          if $r->{path} =~ /by-slug/;
        $resp{308} = { description => 'Trailing-slash variant of this path; Location gives the canonical path' };
        my $op = { operationId => lc($r->{method}) . join('', map { my $s = $_; $s =~ s/[{}]//g; $s =~ s/[^A-Za-z0-9]+(.)/\u$1/g; "\u$s" } @{ $r->{segs} }),
                   summary => $m->{summary} // '', tags => [ $m->{tag} // 'misc' ], parameters => [ @pp, @qp ], responses => \%resp };
        if ($m->{body}) {
            $op->{requestBody} = { required => ($m->{body} =~ /^(DuplicateRequest|WorkbookUpsert|UploadStart|BranchRef|DbtSyncStart|ReportUpsert)$/ ? JSON::PP::false : JSON::PP::true),
                                   content => { 'application/json' => { schema => ref_($m->{body}) } } };
        }
        $paths{ $r->{path} }{ lc $r->{method} } = $op;
    }
    return {
        openapi => '3.1.0',
        info => { title => 'Platform API', version => '1.0.0', description => 'Blind Perl implementation of the analytics platform management API' },
        servers => [ { url => '/' } ],
        security => [ { bearerAuth => [] } ],
        paths => \%paths,
        components => { securitySchemes => { bearerAuth => { type => 'http', scheme => 'bearer', description => 'Account API key' } }, schemas => schemas() },
    };
}

Blind::App::route(GET => '/api/v1/spec', sub { return [ 200, document() ] },
    summary => 'The OpenAPI 3.1 document of this server', tag => 'meta', resp => 'OpenApiDocument');

1;
