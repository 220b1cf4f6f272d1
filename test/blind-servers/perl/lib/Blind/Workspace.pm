package Blind::Workspace;
# E8-E12 and workspace-related E14 endpoints (folders, reports, bulk delete, embed access, placements).
use strict;
use utf8;
use warnings;
use Blind::Util;
use Blind::Store;
use Blind::App;

sub S_ { $Blind::Store::S }
*dep = \&Blind::App::dep;
*path_int = \&Blind::App::path_int;

my %WTYPES = map { $_ => 1 } qw(CHART TEXT FILTER AI TIME_GRAIN PARENT SPACER DIVIDER CONTAINER TABS_CONTAINER);
my %BP = map { $_ => 1 } qw(lg md sm xs xxs);

# ---------- validation of DashboardConfig (used for meta.dashboardDraft) ----------
sub check_pos {
    my ($p, $where) = @_;
    err(400, "$where must be an object with integer x, y, w, h") unless is_obj($p);
    for my $k (qw(x y w h)) { err(400, "$where.$k must be an integer") unless is_int($p->{$k}) }
}

sub validate_config {
    my ($cfg, $where) = @_;
    return unless defined $cfg;
    err(400, "$where must be an object or null") unless is_obj($cfg);
    if (defined $cfg->{kind}) { err(400, "$where.kind must be CLASSIC or APP") unless is_str($cfg->{kind}) && $cfg->{kind} =~ /^(CLASSIC|APP)\z/ }
    for my $k (qw(title description)) { err(400, "$where.$k must be a string") if defined $cfg->{$k} && !is_str($cfg->{$k}) }
    for my $k (qw(settings theme)) { err(400, "$where.$k must be an object") if defined $cfg->{$k} && !is_obj($cfg->{$k}) }
    if (defined $cfg->{widgets}) {
        err(400, "$where.widgets must be an array") unless is_arr($cfg->{widgets});
        my $i = 0;
        for my $w (@{ $cfg->{widgets} }) {
            my $ww = "$where.widgets[$i]";
            err(400, "$ww must be an object") unless is_obj($w);
            err(400, "$ww.id must be a string") unless is_str($w->{id});
            err(400, "$ww.type must be one of " . join(', ', grep { $_ ne 'TABS_CONTAINER' } sort keys %WTYPES)) unless is_str($w->{type}) && $WTYPES{ $w->{type} };
            check_pos($w->{position}, "$ww.position");
            if (defined $w->{responsiveLayouts}) {
                err(400, "$ww.responsiveLayouts must be an object") unless is_obj($w->{responsiveLayouts});
                for my $k (keys %{ $w->{responsiveLayouts} }) {
                    err(400, "$ww.responsiveLayouts.$k is not a breakpoint") unless $BP{$k};
                    check_pos($w->{responsiveLayouts}{$k}, "$ww.responsiveLayouts.$k") if defined $w->{responsiveLayouts}{$k};
                }
            }
            err(400, "$ww.config must be an object or null") if defined $w->{config} && !is_obj($w->{config});
            err(400, "$ww.style must be an object or null") if defined $w->{style} && !is_obj($w->{style});
            if ($w->{type} eq 'TABS_CONTAINER') {    # legacy value: convert
                $w->{type} = 'CONTAINER';
                $w->{config} //= {};
                $w->{config}{layout} = 'tabs';
            }
            $i++;
        }
    }
    if (defined $cfg->{layout}) {
        my $l = $cfg->{layout};
        err(400, "$where.layout must be an object") unless is_obj($l);
        for my $k (qw(breakpoints cols)) {
            next unless defined $l->{$k};
            err(400, "$where.layout.$k must be an object") unless is_obj($l->{$k});
            for my $bp (keys %{ $l->{$k} }) { err(400, "$where.layout.$k.$bp must be an integer or null") if defined $l->{$k}{$bp} && !is_int($l->{$k}{$bp}) }
        }
        for my $k (qw(containerPadding margin)) {
            next unless defined $l->{$k};
            err(400, "$where.layout.$k must be an array of integers") unless is_arr($l->{$k}) && !grep { !is_int($_) } @{ $l->{$k} };
        }
        err(400, "$where.layout.rowHeight must be an integer") if defined $l->{rowHeight} && !is_int($l->{rowHeight});
    }
    if (defined $cfg->{app}) {
        my $a = $cfg->{app};
        err(400, "$where.app must be an object") unless is_obj($a);
        if (defined $a->{entry}) {
            err(400, "$where.app.entry must be a string") unless is_str($a->{entry});
            err(400, "$where.app.entry must be at most 255 characters") if length($a->{entry}) > 255;
        }
        err(400, "$where.app.html must be a string") if defined $a->{html} && !is_str($a->{html});
        if (defined $a->{files}) {
            err(400, "$where.app.files must be an object of strings") unless is_obj($a->{files}) && !grep { !is_str($_) } values %{ $a->{files} };
        }
        if (defined $a->{manifest}) {
            my $m = $a->{manifest};
            err(400, "$where.app.manifest must be an object") unless is_obj($m);
            err(400, "$where.app.manifest.version must be an integer") if defined $m->{version} && !is_int($m->{version});
            err(400, "$where.app.manifest.dependencies must be an object of strings")
              if defined $m->{dependencies} && !(is_obj($m->{dependencies}) && !grep { !is_str($_) } values %{ $m->{dependencies} });
        }
    }
}

# ---------- lookups ----------
sub obj_of {
    my ($type, $id) = @_;
    return S_->{workbooks}{$id} if $type eq 'WORKBOOK';
    return S_->{reports}{$id}   if $type eq 'REPORT';
    return S_->{folders}{$id}   if $type eq 'FOLDER';
    return undef;
}

sub ser_any {
    my ($type, $o) = @_;
    return Blind::Store::ser_workbook($o) if $type eq 'WORKBOOK';
    return Blind::Store::ser_report_wb($o) if $type eq 'REPORT';
    return Blind::Store::ser_folder_wb($o);
}

sub wb_in_dep {
    my ($c, $d) = @_;
    my $id = path_int($c, 'workbookId', 'workbook');
    my $w = S_->{workbooks}{$id};
    err(404, "workbook $id not found") unless $w && $w->{deploymentId} eq $d->{id};
    err(404, "workbook $id not found") unless Blind::Store::access($c->{user}, $w, 'WORKBOOK') >= 1;
    return $w;
}

sub folder_in_dep {
    my ($d, $fid) = @_;
    my $f = S_->{folders}{$fid};
    return ($f && $f->{deploymentId} eq $d->{id}) ? $f : undef;
}

sub folder_depth { my @c = Blind::Store::folder_chain($_[0]); return scalar @c }
my $MAX_DEPTH = 8;

# ---------- E8 ----------
Blind::App::route(GET => '/api/v1/deployments/{deploymentId}/workbooks', sub {
    my $c = shift;
    my $d = dep($c);
    my $q = $c->{q};
    my $fid;
    if (exists $q->{folderId} && $q->{folderId} ne 'null' && $q->{folderId} ne '') {
        $fid = q_int($q, 'folderId', 0);
        $fid = undef if $fid == 0;
        err(404, "folder $q->{folderId} not found") if defined $fid && !folder_in_dep($d, $fid);
    }
    my $u = $c->{user};
    my @f = sort { $a->{id} <=> $b->{id} } grep { $_->{deploymentId} eq $d->{id} && (($_->{parentId} // 0) == ($fid // 0))
                                                  && Blind::Store::access($u, $_, 'FOLDER') >= 1 } values %{ S_->{folders} };
    my @w = sort { $a->{id} <=> $b->{id} } grep { $_->{deploymentId} eq $d->{id} && (($_->{folderId} // 0) == ($fid // 0))
                                                  && Blind::Store::access($u, $_, 'WORKBOOK') >= 1 } values %{ S_->{workbooks} };
    my @all = ((map { [ FOLDER => $_ ] } @f), (map { [ WORKBOOK => $_ ] } @w));
    my ($page, $pi) = cursor_page(\@all, $q);
    my @items = map { ser_any(@$_) } @$page;
    return [ 200, { items => \@items, data => \@items, count => I(scalar @all), pageInfo => $pi } ];
}, summary => 'List workbooks (one folder level)', tag => 'workbooks', params => [qw(folderId first after)], resp => 'WorkbooksListResponse');

# ---------- E9 ----------
Blind::App::route(GET => '/api/v1/deployments/{deploymentId}/workbooks/{workbookId}', sub {
    my $c = shift;
    my $d = dep($c);
    my $w = wb_in_dep($c, $d);
    return [ 200, Blind::Store::ser_workbook($w) ];
}, summary => 'Get a workbook', tag => 'workbooks', resp => 'Workbook');

# ---------- E10 ----------
sub remap_config {
    my ($cfg, $map) = @_;
    return undef unless defined $cfg;
    my $n = clone_data($cfg);
    for my $w (@{ is_arr($n->{widgets}) ? $n->{widgets} : [] }) {
        next unless is_obj($w) && is_obj($w->{config});
        my $r = $w->{config}{reportId};
        $w->{config}{reportId} = $map->{$r} if defined $r && !ref $r && exists $map->{$r};
    }
    return $n;
}

sub check_limit {
    my $d = shift;
    return unless defined $d->{workbookLimit};
    my $n = grep { $_->{deploymentId} eq $d->{id} } values %{ S_->{workbooks} };
    err(400, "the plan's workbook limit ($d->{workbookLimit}) has been reached for this deployment") if $n >= $d->{workbookLimit};
}

Blind::App::route(POST => '/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/duplicate', sub {
    my $c = shift;
    my $d = dep($c);
    my $bd = $c->{body} // {};
    req_obj($bd);
    my $shared = opt_bool($bd, 'shared') // 0;
    my $u = $c->{user};
    my $now = time();
    if ($shared) {
        err(403, 'shared clones are only available to creator-mode embed sessions') unless $u->{creatorMode};
        my $id = path_int($c, 'workbookId', 'workbook');
        my $src = S_->{workbooks}{$id};
        err(404, "workbook $id not found in the shared workspace") unless $src && $src->{deploymentId} eq $d->{id} && $src->{shared};
        err(400, 'the source workbook has no published dashboard') unless $src->{dashboard};
        check_limit($d);
        my $nw = new_wb_from($src, $u, undef, $now);
        my %map;
        my @reps;
        for my $s (@{ $src->{dashboard}{reportSnapshots} }) {
            my $r = Blind::Store::add_report($nw, $s->{name} // 'Report', $u->{id});
            $r->{sqlQuery} = $s->{sqlQuery}; $r->{pythonCode} = $s->{pythonCode}; $r->{kind} = $s->{kind};
            $r->{createdAt} = $r->{updatedAt} = $now;
            $map{ $s->{reportId} } = $r->{id};
            push @reps, $r;
        }
        my $cfg = remap_config($src->{dashboard}{config}, \%map);
        $nw->{dashboardDraft} = clone_data($cfg);
        $nw->{dashboardPublished} = clone_data($cfg);
        my $db = Blind::Store::publish_dashboard($nw, $cfg, $u->{id}, \@reps, allowEmbed => 0, versionNumber => 1);
        $db->{fromShared} = 1;
        return [ 200, Blind::Store::ser_workbook($nw) ];
    }
    my $src = wb_in_dep($c, $d);
    need_role($u, 'AI_BI_USER', 'clone workbook');
    check_limit($d);
    my $dest = (defined $src->{folderId} && Blind::Store::folder_edit($u, $src->{folderId})) ? $src->{folderId} : undef;
    my $nw = new_wb_from($src, $u, $dest, $now);
    my %map;
    my @reps = sort { $a->{id} <=> $b->{id} } grep { $_->{workbookId} == $src->{id} } values %{ S_->{reports} };
    my @new;
    for my $r (@reps) {
        my $nr = Blind::Store::add_report($nw, $r->{name}, $u->{id});
        $nr->{$_} = clone_data($r->{$_}) for qw(sqlQuery pythonCode kind meta);
        $nr->{createdAt} = $nr->{updatedAt} = $now;
        $map{ $r->{id} } = $nr->{id};
        push @new, $nr;
    }
    $nw->{dashboardDraft} = remap_config($src->{dashboardDraft}, \%map);
    $nw->{dashboardPublished} = remap_config($src->{dashboardPublished}, \%map);
    if (my $sd = $src->{dashboard}) {
        my $cfg = remap_config($sd->{config}, \%map);
        my $db = Blind::Store::publish_dashboard($nw, $cfg, $u->{id}, [], allowEmbed => 0, versionNumber => 1);
        $db->{status} = $sd->{status};
        $db->{title} = $sd->{title}; $db->{description} = $sd->{description};
        $db->{restrictDataDownload} = $sd->{restrictDataDownload};
        $db->{reportSnapshots} = [ map { my $s = clone_data($_); $s->{id} = Blind::Store::next_id('snapshot');
                                         $s->{reportId} = $map{ $_->{reportId} } // $_->{reportId}; $s } @{ $sd->{reportSnapshots} } ];
    }
    Blind::Store::audit('Workbook duplicated', $u->{email}, $d->{name}, { source => $src->{id}, clone => $nw->{id} });
    return [ 200, Blind::Store::ser_workbook($nw) ];
}, summary => 'Clone a workbook', tag => 'workbooks', body => 'DuplicateRequest', resp => 'Workbook');

sub new_wb_from {
    my ($src, $u, $folder, $now) = @_;
    my $id = Blind::Store::next_id('workbook');
    return S_->{workbooks}{$id} = { id => $id, deploymentId => $src->{deploymentId}, name => "Copy of $src->{name}", folderId => $folder,
        createdBy => $u->{id}, createdAt => $now, updatedAt => $now, meta => clone_data($src->{meta}) // {},
        calculatedFields => clone_data($src->{calculatedFields}) // {}, isFavorite => undef, slug => undef,
        dashboardDraft => undef, dashboardPublished => undef, dashboard => undef, shared => 0 };
}

# ---------- E11 ----------
Blind::App::route(PUT => '/api/v1/deployments/{deploymentId}/workbooks/by-slug/{slug}', sub {
    my $c = shift;
    my $d = dep($c);
    my $u = $c->{user};
    my $slug = lc($c->{p}{slug} =~ s/^\s+|\s+$//gr);
    err(400, 'slug must not be empty') unless length $slug;
    err(400, 'slug must be at most 255 characters') if length $slug > 255;
    err(400, 'slug must not contain control characters') if $slug =~ /[\x00-\x1f\x7f]/;
    my $bd = $c->{body} // {};
    req_obj($bd);
    my $name = opt_str($bd, 'name', max => 500);
    my $has_folder = exists $bd->{folderId};
    my $fid = opt_int($bd, 'folderId', nullable => 1, min => 0);
    $fid = undef if defined $fid && $fid == 0;
    my $meta;
    if (exists $bd->{meta}) {
        err(400, "field 'meta' must be an object") unless is_obj($bd->{meta});
        $meta = $bd->{meta};
        validate_config($meta->{dashboardDraft}, 'meta.dashboardDraft') if exists $meta->{dashboardDraft};
    }
    err(400, "folder $fid not found in this deployment") if defined $fid && !folder_in_dep($d, $fid);
    my ($w) = grep { $_->{deploymentId} eq $d->{id} && defined $_->{slug} && $_->{slug} eq $slug } values %{ S_->{workbooks} };
    if ($w) {
        my $lvl = Blind::Store::access($u, $w, 'WORKBOOK');
        err(404, "workbook with slug '$slug' not found") if $lvl < 1;
        err(403, 'edit access to the workbook is required') if $lvl < 2;
        if ($has_folder) {
            err(403, 'moving requires manage access to the workbook') if $lvl < 3;
            err(403, 'edit access to the destination folder is required') unless Blind::Store::folder_edit($u, $fid);
        }
        my $before = JSON::PP->new->canonical->encode([ $w->{name}, $w->{folderId}, $w->{meta} ]);
        $w->{name} = $name if defined $name;
        $w->{folderId} = $fid if $has_folder;
        if ($meta) { $w->{meta}{$_} = clone_data($meta->{$_}) for keys %$meta }
        my $after = JSON::PP->new->canonical->encode([ $w->{name}, $w->{folderId}, $w->{meta} ]);
        if ($before ne $after) {
            $w->{updatedAt} = time();
            $_->{folderId} = $w->{folderId} for grep { $_->{workbookId} == $w->{id} } values %{ S_->{reports} };
        }
        return [ 200, Blind::Store::ser_workbook($w) ];
    }
    need_role($u, 'AI_BI_USER', 'create workbook');
    err(403, 'edit access to the destination folder is required') if defined $fid && !Blind::Store::folder_edit($u, $fid);
    my $id = Blind::Store::next_id('workbook');
    my $now = time();
    $w = S_->{workbooks}{$id} = { id => $id, deploymentId => $d->{id}, name => $name // 'Untitled', folderId => $fid, createdBy => $u->{id},
        createdAt => $now, updatedAt => $now, meta => clone_data($meta) // {}, calculatedFields => {}, isFavorite => 0, slug => $slug,
        dashboardDraft => undef, dashboardPublished => undef, dashboard => undef, shared => 0 };
    Blind::Store::audit('Workbook created', $u->{email}, $d->{name}, { slug => $slug });
    return [ 200, Blind::Store::ser_workbook($w) ];
}, summary => 'Create or update a workbook by slug', tag => 'workbooks', body => 'WorkbookUpsert', resp => 'Workbook');

# ---------- item list parsing for bulk operations ----------
my %ITYPES = map { $_ => 1 } qw(WORKBOOK REPORT FOLDER);
sub parse_items {
    my $bd = shift;
    err(400, "field 'items' is required and must be an array") unless is_arr($bd->{items});
    err(400, "field 'items' must not be empty") unless @{ $bd->{items} };
    my (@out, %seen);
    my $i = 0;
    for my $it (@{ $bd->{items} }) {
        err(400, "items[$i] must be an object with type and id") unless is_obj($it);
        err(400, "items[$i].type must be WORKBOOK, REPORT or FOLDER") unless is_str($it->{type}) && $ITYPES{ $it->{type} };
        err(400, "items[$i].id must be an integer") unless is_int($it->{id});
        push @out, { type => $it->{type}, id => 0 + $it->{id} } unless $seen{"$it->{type}:$it->{id}"}++;
        $i++;
    }
    err(400, 'at most 100 distinct items are allowed') if @out > 100;
    return @out;
}

sub in_dep { my ($o, $d) = @_; return $o && $o->{deploymentId} eq $d->{id} }

sub failed { my ($it, $st, $msg) = @_; return { type => $it->{type}, id => I($it->{id}), error => { message => S($msg), status => I($st) } } }

# ---------- E12 ----------
Blind::App::route(POST => '/api/v1/deployments/{deploymentId}/workspace/bulk-move', sub {
    my $c = shift;
    my $d = dep($c);
    my $u = $c->{user};
    my $bd = req_obj($c->{body});
    my @items = parse_items($bd);
    my $dest = opt_int($bd, 'folderId', nullable => 1, min => 0);
    $dest = undef if defined $dest && $dest == 0;
    my (@moved, @failed);
    for my $it (@items) {
        my $o = obj_of($it->{type}, $it->{id});
        if (!in_dep($o, $d) || Blind::Store::access($u, $o, $it->{type}) < 1) { push @failed, failed($it, 404, "$it->{type} $it->{id} not found"); next }
        if (defined $dest && !folder_in_dep($d, $dest)) { push @failed, failed($it, 400, "destination folder $dest not found"); next }
        if ($it->{type} eq 'FOLDER' && defined $dest) {
            if (grep { $_->{id} == $o->{id} } Blind::Store::folder_chain($dest)) { push @failed, failed($it, 400, 'a folder cannot be moved into itself or one of its descendants'); next }
            if (folder_depth($dest) + subtree_height($o) > $MAX_DEPTH) { push @failed, failed($it, 400, "maximum folder depth ($MAX_DEPTH) exceeded"); next }
        }
        if (Blind::Store::access($u, $o, $it->{type}) < 2 || !Blind::Store::folder_edit($u, $dest)) {
            push @failed, failed($it, 403, "not allowed to move $it->{type} $it->{id} there"); next;
        }
        if ($it->{type} eq 'FOLDER') { $o->{parentId} = $dest }
        else { $o->{folderId} = $dest }
        if ($it->{type} eq 'WORKBOOK') { $_->{folderId} = $dest for grep { $_->{workbookId} == $o->{id} } values %{ S_->{reports} } }
        $o->{updatedAt} = time();
        push @moved, ser_any($it->{type}, $o);
    }
    return [ 200, { moved => \@moved, failed => \@failed } ];
}, summary => 'Move workspace items in bulk', tag => 'workspace', body => 'BulkMoveRequest', resp => 'BulkMoveResponse');

sub subtree_height {
    my $f = shift;
    my @kids = grep { ($_->{parentId} // 0) == $f->{id} } values %{ S_->{folders} };
    my $h = 1;
    for my $k (@kids) { my $x = 1 + subtree_height($k); $h = $x if $x > $h }
    return $h;
}

sub delete_workbook {
    my $w = shift;
    for my $r (grep { $_->{workbookId} == $w->{id} } values %{ S_->{reports} }) { delete S_->{reports}{ $r->{id} } }
    delete S_->{dashboards}{ $w->{dashboard}{publicId} } if $w->{dashboard};
    delete S_->{workbooks}{ $w->{id} };
}

sub delete_folder {
    my $f = shift;
    for my $k (qw(workbooks reports)) { $_->{folderId} = undef for grep { ($_->{folderId} // 0) == $f->{id} } values %{ S_->{$k} } }
    delete S_->{folders}{ $f->{id} };
}

Blind::App::route(POST => '/api/v1/deployments/{deploymentId}/workspace/bulk-delete', sub {
    my $c = shift;
    my $d = dep($c);
    my $u = $c->{user};
    my $bd = req_obj($c->{body});
    my @items = parse_items($bd);
    my (@deleted, @failed);
    for my $it (@items) {
        my $o = obj_of($it->{type}, $it->{id});
        if (!in_dep($o, $d) || Blind::Store::access($u, $o, $it->{type}) < 1) { push @failed, failed($it, 404, "$it->{type} $it->{id} not found"); next }
        if (Blind::Store::access($u, $o, $it->{type}) < 3) { push @failed, failed($it, 403, "manage access is required to delete $it->{type} $it->{id}"); next }
        if ($it->{type} eq 'FOLDER' && grep { ($_->{parentId} // 0) == $o->{id} } values %{ S_->{folders} }) {
            push @failed, failed($it, 400, 'folder still has sub-folders'); next;
        }
        if ($it->{type} eq 'WORKBOOK') { delete_workbook($o) }
        elsif ($it->{type} eq 'REPORT') { delete S_->{reports}{ $o->{id} } }
        else { delete_folder($o) }
        push @deleted, { type => $it->{type}, id => I($it->{id}) };
    }
    return [ 200, { deleted => \@deleted, failed => \@failed } ];
}, summary => 'Delete workspace items in bulk', tag => 'workspace', body => 'BulkDeleteRequest', resp => 'BulkDeleteResponse');

# ---------- folders ----------
Blind::App::route(GET => '/api/v1/deployments/{deploymentId}/folders', sub {
    my $c = shift;
    my $d = dep($c);
    my $q = $c->{q};
    my $pid;
    if (exists $q->{parentId} && $q->{parentId} ne 'null' && $q->{parentId} ne '') {
        $pid = q_int($q, 'parentId', 0);
        $pid = undef if $pid == 0;
        err(404, "folder $q->{parentId} not found") if defined $pid && !folder_in_dep($d, $pid);
    }
    my @f = sort { $a->{position} <=> $b->{position} || $a->{id} <=> $b->{id} }
            grep { $_->{deploymentId} eq $d->{id} && ($_->{parentId} // 0) == ($pid // 0) && Blind::Store::access($c->{user}, $_, 'FOLDER') >= 1 }
            values %{ S_->{folders} };
    my ($page, $pi) = cursor_page(\@f, $q);
    my @items = map { Blind::Store::ser_folder($_) } @$page;
    return [ 200, { items => \@items, data => \@items, count => I(scalar @f), pageInfo => $pi } ];
}, summary => 'List folders (one level)', tag => 'workspace', params => [qw(parentId first after)], resp => 'FolderList');

Blind::App::route(POST => '/api/v1/deployments/{deploymentId}/folders', sub {
    my $c = shift;
    my $d = dep($c);
    my $u = $c->{user};
    my $bd = req_obj($c->{body});
    my $name = req_str($bd, 'name', max => 255);
    my $pid = opt_int($bd, 'parentId', nullable => 1, min => 0);
    $pid = undef if defined $pid && $pid == 0;
    my $pos = opt_int($bd, 'position', nullable => 1, min => 0);
    need_role($u, 'AI_BI_USER', 'create folder');
    if (defined $pid) {
        err(400, "parent folder $pid not found") unless folder_in_dep($d, $pid);
        err(403, 'edit access to the parent folder is required') unless Blind::Store::folder_edit($u, $pid);
        err(400, "maximum folder depth ($MAX_DEPTH) exceeded") if folder_depth($pid) + 1 > $MAX_DEPTH;
    }
    my $f = Blind::Store::add_folder($d->{id}, $name, $pid, $u->{id});
    $f->{createdAt} = $f->{updatedAt} = time();
    $f->{position} = $pos if defined $pos;
    return [ 201, { data => Blind::Store::ser_folder($f) }, [ Location => "/api/v1/deployments/$d->{id}/folders/$f->{id}" ] ];
}, summary => 'Create a folder', tag => 'workspace', body => 'FolderCreate', ok => 201, resp => 'FolderWrapped');

Blind::App::route(DELETE => '/api/v1/deployments/{deploymentId}/folders/{folderId}', sub {
    my $c = shift;
    my $d = dep($c);
    my $id = path_int($c, 'folderId', 'folder');
    my $f = folder_in_dep($d, $id);
    err(404, "folder $id not found") unless $f && Blind::Store::access($c->{user}, $f, 'FOLDER') >= 1;
    err(403, 'manage access is required to delete this folder') if Blind::Store::access($c->{user}, $f, 'FOLDER') < 3;
    err(400, 'folder still has sub-folders') if grep { ($_->{parentId} // 0) == $id } values %{ S_->{folders} };
    delete_folder($f);
    return [ 204 ];
}, summary => 'Delete a folder (contents move to the root)', tag => 'workspace', ok => 204);

# ---------- reports ----------
my %SORT = map { $_ => 1 } qw(createdAt updatedAt lastViewedAt name);
Blind::App::route(GET => '/api/v1/deployments/{deploymentId}/reports', sub {
    my $c = shift;
    my $d = dep($c);
    my $q = $c->{q};
    my $u = $c->{user};
    my $sort = $q->{sortBy};
    err(400, "query parameter 'sortBy' must be one of createdAt, updatedAt, lastViewedAt, name") if defined $sort && !$SORT{$sort};
    my $fid;
    if (exists $q->{folderId} && $q->{folderId} ne 'null' && $q->{folderId} ne '') { $fid = q_int($q, 'folderId', 0); $fid = undef if $fid == 0 }
    my @r = grep { $_->{deploymentId} eq $d->{id} && Blind::Store::access($u, $_, 'REPORT') >= 1 } values %{ S_->{reports} };
    @r = grep { ($_->{folderId} // 0) == ($fid // 0) } @r if exists $q->{folderId};
    if (defined $q->{search} && length $q->{search}) { my $s = lc $q->{search}; @r = grep { index(lc $_->{name}, $s) >= 0 } @r }
    if (defined $q->{externalWorkbookId}) {
        my %ok = map { $_->{reportId} => 1 } grep { $_->{externalWorkbookId} eq $q->{externalWorkbookId} } values %{ S_->{placements} };
        @r = grep { $ok{ $_->{id} } } @r;
    }
    if (!defined $sort) { @r = sort { $a->{id} <=> $b->{id} } @r }
    elsif ($sort eq 'name') { @r = sort { lc $a->{name} cmp lc $b->{name} || $a->{id} <=> $b->{id} } @r }
    else { @r = sort { $b->{$sort} <=> $a->{$sort} || $a->{id} <=> $b->{id} } @r }
    my ($page, $pi);
    if (($sort // '') eq 'lastViewedAt') {
        ($page, $pi) = (\@r, { hasNextPage => FALSE, hasPreviousPage => FALSE });    # no cursor for this sort: everything
    } else {
        ($page, $pi) = cursor_page(\@r, $q);
    }
    my @items = map { Blind::Store::ser_report($_) } @$page;
    return [ 200, { items => \@items, data => \@items, count => I(scalar @r), pageInfo => $pi } ];
}, summary => 'List reports', tag => 'reports', params => [qw(folderId externalWorkbookId search sortBy first after)], resp => 'ReportList');

Blind::App::route(PUT => '/api/v1/deployments/{deploymentId}/reports/by-public-id/{publicId}', sub {
    my $c = shift;
    my $d = dep($c);
    my $u = $c->{user};
    my $pid = $c->{p}{publicId};
    err(400, 'publicId must be 1-128 characters of letters, digits, _ or -') unless $pid =~ /^[A-Za-z0-9_-]{1,128}\z/;
    my $bd = $c->{body} // {};
    req_obj($bd);
    my $name = opt_str($bd, 'name', max => 500);
    my $sql = opt_str($bd, 'sqlQuery', nullable => 1, allow_empty => 1);
    my $py = opt_str($bd, 'pythonCode', nullable => 1, allow_empty => 1);
    my $kind = opt_str($bd, 'kind', nullable => 1);
    err(400, 'kind must be one of vega, table, kpi, html, map') if defined $kind && $kind !~ /^(vega|table|kpi|html|map)\z/;
    my $wbid = opt_int($bd, 'workbookId', min => 1);
    my ($r) = grep { $_->{deploymentId} eq $d->{id} && $_->{publicId} eq $pid } values %{ S_->{reports} };
    if ($r) {
        err(403, 'edit access to the report is required') if Blind::Store::access($u, $r, 'REPORT') < 2;
        $r->{name} = $name if defined $name;
        $r->{sqlQuery} = $sql if exists $bd->{sqlQuery};
        $r->{pythonCode} = $py if exists $bd->{pythonCode};
        $r->{kind} = $kind if exists $bd->{kind};
        $r->{updatedAt} = time();
        return [ 200, { data => Blind::Store::ser_report($r) } ];
    }
    err(400, "field 'workbookId' is required to create a report") unless defined $wbid;
    my $w = S_->{workbooks}{$wbid};
    err(404, "workbook $wbid not found") unless $w && $w->{deploymentId} eq $d->{id} && Blind::Store::access($u, $w, 'WORKBOOK') >= 1;
    err(403, 'edit access to the workbook is required') if Blind::Store::access($u, $w, 'WORKBOOK') < 2 || Blind::Util::role_rank($u->{role}) < 2;
    $r = Blind::Store::add_report($w, $name // 'Untitled report', $u->{id});
    $r->{publicId} = $pid;
    $r->{sqlQuery} = $sql if exists $bd->{sqlQuery};
    $r->{pythonCode} = $py;
    $r->{kind} = $kind if defined $kind;
    $r->{createdAt} = $r->{updatedAt} = $r->{lastViewedAt} = time();
    return [ 201, { data => Blind::Store::ser_report($r) } ];
}, summary => 'Create or update a report by public id', tag => 'reports', body => 'ReportUpsert', ok => 201, resp => 'ReportWrapped');

sub report_in_dep {
    my ($c, $d) = @_;
    my $id = path_int($c, 'reportId', 'report');
    my $r = S_->{reports}{$id};
    err(404, "report $id not found") unless $r && $r->{deploymentId} eq $d->{id} && Blind::Store::access($c->{user}, $r, 'REPORT') >= 1;
    return $r;
}

sub placement_addr {
    my ($src, $r, $need) = @_;
    if (defined $src->{placementId}) {
        err(400, 'placementId must be a string') unless is_str($src->{placementId});
        my $p = S_->{placements}{ $src->{placementId} };
        err(404, 'placement not found') unless $p && $p->{reportId} == $r->{id};
        return $p;
    }
    my @k = qw(externalWorkbookId sheetName anchorCell);
    for (@k) { err(400, "either placementId or externalWorkbookId + sheetName + anchorCell is required") unless is_str($src->{$_}) && length $src->{$_} }
    err(400, 'anchorCell must look like A1') unless $src->{anchorCell} =~ /^[A-Za-z]{1,3}[1-9][0-9]{0,6}\z/;
    my ($p) = grep { $_->{reportId} == $r->{id} && $_->{externalWorkbookId} eq $src->{externalWorkbookId}
                     && $_->{sheetName} eq $src->{sheetName} && uc $_->{anchorCell} eq uc $src->{anchorCell} } values %{ S_->{placements} };
    return $p if $p || !$need;
    err(404, 'placement not found');
}

sub ser_placement { my $p = shift; return { %$p, reportId => I($p->{reportId}), createdAt => ts_iso($p->{createdAt}),
                                            lastRefreshedAt => defined $p->{lastRefreshedAt} ? ts_iso($p->{lastRefreshedAt}) : undef } }

Blind::App::route(PUT => '/api/v1/deployments/{deploymentId}/reports/{reportId}/connect-workbook', sub {
    my $c = shift;
    my $d = dep($c);
    my $r = report_in_dep($c, $d);
    my $bd = req_obj($c->{body});
    my $p = placement_addr({ %$bd, placementId => undef }, $r, 0);
    return [ 200, { data => ser_placement($p) } ] if $p;
    my $id = Blind::Util::uuid4();
    $p = S_->{placements}{$id} = { placementId => $id, reportId => $r->{id}, externalWorkbookId => $bd->{externalWorkbookId},
        sheetName => $bd->{sheetName}, anchorCell => uc $bd->{anchorCell}, createdAt => time(), lastRefreshedAt => undef };
    return [ 201, { data => ser_placement($p) } ];
}, summary => 'Place a report in a spreadsheet', tag => 'reports', body => 'PlacementAddress', ok => 201, resp => 'Wrapped');

Blind::App::route(DELETE => '/api/v1/deployments/{deploymentId}/reports/{reportId}/connect-workbook', sub {
    my $c = shift;
    my $d = dep($c);
    my $r = report_in_dep($c, $d);
    my $src = is_obj($c->{body}) ? $c->{body} : $c->{q};
    my $p = placement_addr($src, $r, 1);
    delete S_->{placements}{ $p->{placementId} };
    return [ 204 ];
}, summary => 'Remove a report placement', tag => 'reports', params => [qw(placementId externalWorkbookId sheetName anchorCell)], ok => 204);

Blind::App::route(PUT => '/api/v1/deployments/{deploymentId}/reports/{reportId}/refresh', sub {
    my $c = shift;
    my $d = dep($c);
    my $r = report_in_dep($c, $d);
    my $bd = req_obj($c->{body});
    my $p = placement_addr($bd, $r, 1);
    $p->{lastRefreshedAt} = time();
    return [ 200, { data => ser_placement($p) } ];
}, summary => 'Refresh a report placement', tag => 'reports', body => 'PlacementAddress', resp => 'Wrapped');

# ---------- embed access & embed dashboard ----------
sub ser_embed_access {
    my $w = shift;
    my $ea = $w->{embedAccess} //= { all => 'none', tenants => {} };
    return { workbookId => I($w->{id}), allEmbedUsers => S($ea->{all}),
             tenants => [ map { { tenantId => I($_), action => S($ea->{tenants}{$_}) } } sort { $a <=> $b } keys %{ $ea->{tenants} } ] };
}

Blind::App::route(GET => '/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/embed-access', sub {
    my $c = shift;
    my $d = dep($c);
    my $w = wb_in_dep($c, $d);
    return [ 200, { data => ser_embed_access($w) } ];
}, summary => 'Read dashboard embed access', tag => 'embedding', resp => 'Wrapped');

Blind::App::route(PUT => '/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/embed-access', sub {
    my $c = shift;
    my $d = dep($c);
    my $w = wb_in_dep($c, $d);
    my $bd = req_obj($c->{body});
    my $act = $bd->{action};
    err(400, "field 'action' must be read or none") unless is_str($act) && $act =~ /^(read|none)\z/;
    my $tid = opt_int($bd, 'tenantId', nullable => 1, min => 1);
    err(404, "embed tenant $tid not found") if defined $tid && !S_->{tenants}{$tid};
    err(403, 'manage access to the workbook is required') if Blind::Store::access($c->{user}, $w, 'WORKBOOK') < 3;
    ser_embed_access($w);
    if (defined $tid) { $w->{embedAccess}{tenants}{$tid} = $act } else { $w->{embedAccess}{all} = $act }
    return [ 200, { data => ser_embed_access($w) } ];
}, summary => 'Change dashboard embed access', tag => 'embedding', body => 'EmbedAccessPut', resp => 'Wrapped');

sub dash_by_public {
    my ($c) = @_;
    my $pid = $c->{p}{publicId};
    my $wid = S_->{dashboards}{$pid};
    my $w = defined $wid ? S_->{workbooks}{$wid} : undef;
    err(404, "dashboard '$pid' not found") unless $w && $w->{dashboard} && Blind::Store::access($c->{user}, $w, 'WORKBOOK') >= 1;
    return $w;
}

Blind::App::route(PATCH => '/api/v1/embed/dashboard/{publicId}', sub {
    my $c = shift;
    my $w = dash_by_public($c);
    my $bd = req_obj($c->{body});
    err(400, "field 'allowEmbed' is required and must be a boolean") unless is_bool($bd->{allowEmbed});
    err(403, 'edit access to the workbook is required') if Blind::Store::access($c->{user}, $w, 'WORKBOOK') < 2;
    $w->{dashboard}{allowEmbed} = $bd->{allowEmbed} ? 1 : 0;
    return [ 200, { data => Blind::Store::ser_dashboard($w->{dashboard}) } ];
}, summary => 'Enable or disable signed embedding', tag => 'embedding', body => 'AllowEmbedPatch', resp => 'Wrapped');

Blind::App::route(POST => '/api/v1/embed/dashboard/{publicId}/python-run', sub {
    my $c = shift;
    my $w = dash_by_public($c);
    my $bd = req_obj($c->{body});
    err(400, "field 'reportId' is required and must be an integer") unless is_int($bd->{reportId});
    err(400, "field 'filters' must be an array") if defined $bd->{filters} && !is_arr($bd->{filters});
    my ($s) = grep { $_->{reportId} == $bd->{reportId} } @{ $w->{dashboard}{reportSnapshots} };
    err(404, "report $bd->{reportId} is not part of this dashboard") unless $s;
    return [ 200, { data => { reportId => I($bd->{reportId}), status => 'succeeded', appliedFilters => $bd->{filters} // [],
                              output => { columns => [qw(label value)], rows => [ [ 'a', 1 ], [ 'b', 2 ] ] } } } ];
}, summary => 'Run a Python report with dashboard filters', tag => 'embedding', body => 'PythonRun', resp => 'Wrapped');

1;
