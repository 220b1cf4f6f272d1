package Blind::Build;
# /build/api/v1 surface: E4, deployment creation, data model, dev mode, branches, git operations.
use strict;
use utf8;
use warnings;
use Digest::SHA qw(sha1_hex sha256_hex);
use MIME::Base64 qw(decode_base64);
use Blind::Util;
use Blind::Store;
use Blind::App;
use Encode ();

sub S_ { $Blind::Store::S }
*dep = \&Blind::App::dep;

my $P = '/build/api/v1/deployments/{deploymentId}';

sub wrap { return { data => $_[0] } }

sub branch_from {
    my ($d, $name, $default) = @_;
    $name //= $default // 'main';
    err(400, 'branchName must be a non-empty string') unless is_str($name) && length $name;
    my $bd = Blind::Store::find_branch($d, name => $name) or err(404, "branch '$name' not found");
    return $bd;
}

# ---------- E4 ----------
Blind::App::route(PUT => "$P/branches/staging-environment", sub {
    my $c = shift;
    my $d = dep($c);
    need_role($c->{user}, 'DEVELOPER', 'staging environment');
    my $bd = req_obj($c->{body});
    err(400, "field 'enabled' is required and must be a boolean") unless is_bool($bd->{enabled});
    my $br;
    if (exists $bd->{branchId} && defined $bd->{branchId}) {
        err(400, "field 'branchId' must be an integer") unless is_int($bd->{branchId});
        $br = Blind::Store::find_branch($d, id => $bd->{branchId}) or err(404, "branch $bd->{branchId} not found");
    } elsif (exists $bd->{branchName} && defined $bd->{branchName}) {
        err(400, "field 'branchName' must be a non-empty string") unless is_str($bd->{branchName}) && length $bd->{branchName};
        $br = Blind::Store::find_branch($d, name => $bd->{branchName}) or err(404, "branch '$bd->{branchName}' not found");
    } else {
        err(400, 'one of branchName or branchId is required');
    }
    if ($bd->{enabled}) {
        err(400, 'the production branch cannot have an always-on staging environment') if $br->{kind} eq 'production';
        err(400, 'personal development branches cannot have an always-on staging environment') if $br->{kind} eq 'personal';
        $br->{staging} = 1;
    } else {
        $br->{staging} = 0;
    }
    return [ 200, wrap(Blind::Store::ser_branch($br)) ];
}, summary => "Enable or disable a branch's staging environment", tag => 'branches', body => 'StagingToggle', resp => 'BranchWrapped');

# ---------- deployment creation ----------
Blind::App::route(POST => '/build/api/v1/deployments/', sub {
    my $c = shift;
    need_role($c->{user}, 'ADMIN', 'create deployment');
    my $bd = req_obj($c->{body});
    my $name = req_str($bd, 'name', max => 200);
    my $cloud = $bd->{cloudProvider} // 'managed';
    err(400, 'cloudProvider must be one of managed, aws, gcp') unless is_str($cloud) && $cloud =~ /^(managed|aws|gcp)\z/;
    my $region = opt_str($bd, 'region', max => 100) // 'managed-eu';
    my $cm = $bd->{creation_method} // 'managed';
    err(400, 'creation_method must be one of upload, managed, github, ssh') unless is_str($cm) && $cm =~ /^(upload|managed|github|ssh)\z/;
    my $dm = $bd->{deploy_mode} // 'git';
    err(400, 'deploy_mode must be one of git, cli') unless is_str($dm) && $dm =~ /^(git|cli)\z/;
    my $dep = Blind::Store::new_deployment($name, $cloud, $region, time());
    $dep->{creation_method} = $cm;
    $dep->{deploy_mode} = $dm;
    $dep->{creationStep} = 'choose-source';
    Blind::Store::audit('Deployment created', $c->{user}{email}, $name, {});
    return [ 201, wrap(Blind::Store::ser_dep_full($dep)), [ Location => "/api/v1/deployments/$dep->{id}" ] ];
}, summary => 'Create a deployment', tag => 'deployments', body => 'DeploymentCreate', ok => 201, resp => 'Wrapped');

# ---------- data model files ----------
sub need_dev_branch {
    my ($c, $d, $name) = @_;
    need_role($c->{user}, 'DEVELOPER', 'data-model write');
    my $bd = branch_from($d, $name);
    err(400, "branch '$bd->{name}' is not in dev mode; data-model files can only be written on dev-mode branches") unless $bd->{devMode};
    return $bd;
}

sub check_path {
    my $p = shift;
    err(400, 'file path must be a non-empty relative string') unless is_str($p) && length $p && length $p <= 512;
    err(400, "invalid file path '$p'") if $p =~ m{^/|(^|/)\.\.(/|$)|[\x00-\x1f]};
    return $p;
}

Blind::App::route(GET => "$P/data-model/files", sub {
    my $c = shift;
    my $d = dep($c);
    my $bd = branch_from($d, $c->{q}{branchName});
    my $f = $d->{files}{ $bd->{name} } //= {};
    my @all = map { { path => S($_), content => S($f->{$_}), size => I(length $f->{$_}) } } sort keys %$f;
    my ($items, $pi) = cursor_page(\@all, $c->{q});
    return [ 200, { items => $items, data => $items, pageInfo => $pi } ];
}, summary => 'List data-model files', tag => 'data-model', params => [qw(branchName first after)], resp => 'GenericList');

Blind::App::route(PUT => "$P/data-model/files", sub {
    my $c = shift;
    my $d = dep($c);
    my $bd = req_obj($c->{body});
    my $br = need_dev_branch($c, $d, $bd->{branchName});
    err(400, "field 'files' is required and must be a non-empty array") unless is_arr($bd->{files}) && @{ $bd->{files} };
    my @w;
    for my $f (@{ $bd->{files} }) {
        err(400, 'each file must be an object with path and content') unless is_obj($f);
        check_path($f->{path});
        err(400, 'file content must be a string') unless is_str($f->{content});
        push @w, [ $f->{path}, $f->{content} ];
    }
    $d->{files}{ $br->{name} }{ $_->[0] } = $_->[1] for @w;
    return [ 200, { data => { branchName => S($br->{name}), written => [ map { S($_->[0]) } @w ] } } ];
}, summary => 'Write data-model files (dev-mode branches only)', tag => 'data-model', body => 'FilesPut', resp => 'Wrapped');

Blind::App::route(DELETE => "$P/data-model/files", sub {
    my $c = shift;
    my $d = dep($c);
    my $br = need_dev_branch($c, $d, $c->{q}{branchName});
    my @paths = map { split /,/ } @{ $c->{qa}{paths} || [] };
    err(400, "query parameter 'paths' (comma-separated) is required") unless @paths;
    my $f = $d->{files}{ $br->{name} };
    for my $p (@paths) { err(404, "file '$p' not found") unless exists $f->{$p} }
    delete $f->{$_} for @paths;
    return [ 204 ];
}, summary => 'Remove data-model files', tag => 'data-model', params => [qw(branchName paths)], ok => 204);

Blind::App::route(POST => "$P/data-model/files/rename", sub {
    my $c = shift;
    my $d = dep($c);
    my $bd = req_obj($c->{body});
    my $br = need_dev_branch($c, $d, $bd->{branchName});
    err(400, "field 'files' is required and must be a non-empty array of {oldPath, newPath}") unless is_arr($bd->{files}) && @{ $bd->{files} };
    my $f = $d->{files}{ $br->{name} };
    my @done;
    for my $r (@{ $bd->{files} }) {
        err(400, 'each rename must be an object with oldPath and newPath') unless is_obj($r);
        check_path($r->{oldPath}); check_path($r->{newPath});
        if (!exists $f->{ $r->{oldPath} }) { push @done, { oldPath => $r->{oldPath}, newPath => $r->{newPath}, renamed => FALSE, error => 'not found' }; next }
        if (exists $f->{ $r->{newPath} }) { push @done, { oldPath => $r->{oldPath}, newPath => $r->{newPath}, renamed => FALSE, error => 'target exists' }; next }
        $f->{ $r->{newPath} } = delete $f->{ $r->{oldPath} };
        push @done, { oldPath => $r->{oldPath}, newPath => $r->{newPath}, renamed => TRUE };
    }
    return [ 200, { data => \@done } ];
}, summary => 'Rename data-model files', tag => 'data-model', body => 'FilesRename', resp => 'Wrapped');

sub compile_errors {
    my $files = shift;
    my @e;
    for my $p (sort keys %$files) {
        my $t = $files->{$p};
        if ($p =~ /\.ya?ml$/) {
            my $ln = 0;
            for my $l (split /\n/, $t) { $ln++; push @e, { file => $p, line => $ln, message => 'tab characters are not allowed in YAML indentation' } if $l =~ /^\s*\t/ }
            push @e, { file => $p, line => 1, message => 'a model file must define cubes: or views:' } unless $t =~ /^(cubes|views):/m;
        } elsif ($p =~ /\.js$/) {
            my $open = () = $t =~ /[{(\[]/g;
            my $close = () = $t =~ /[})\]]/g;
            push @e, { file => $p, line => 1, message => 'unbalanced brackets' } if $open != $close;
        }
    }
    return @e;
}

Blind::App::route(GET => "$P/data-model/validate", sub {
    my $c = shift;
    my $d = dep($c);
    my $bd = branch_from($d, $c->{q}{branchName});
    my @e = compile_errors($d->{files}{ $bd->{name} } // {});
    return [ 200, { data => { branchName => S($bd->{name}), valid => B(!@e), errors => [ map { { %$_, line => I($_->{line}) } } @e ] } } ];
}, summary => 'Compile a branch (errors come back with 200 and valid=false)', tag => 'data-model', params => [qw(branchName)], resp => 'Wrapped');

Blind::App::route(GET => "$P/data-model/file-hashes", sub {
    my $c = shift;
    my $d = dep($c);
    my $bd = branch_from($d, $c->{q}{branchName});
    my $f = $d->{files}{ $bd->{name} } // {};
    my @all = map { { path => S($_), hash => sha1_hex(Encode::encode('UTF-8', $f->{$_})) } } sort keys %$f;
    my ($items, $pi) = cursor_page(\@all, $c->{q});
    return [ 200, { items => $items, data => $items, pageInfo => $pi } ];
}, summary => 'Data-model file hashes', tag => 'data-model', params => [qw(branchName first after)], resp => 'GenericList');

# chunked upload
Blind::App::route(POST => "$P/data-model/upload/start", sub {
    my $c = shift;
    my $d = dep($c);
    need_role($c->{user}, 'DEVELOPER', 'upload');
    my $bd = $c->{body} // {};
    req_obj($bd);
    my $br = branch_from($d, $bd->{branchName});
    my $id = 'upl_' . substr(sha256_hex(rand() . time()), 0, 20);
    S_->{uploads}{$id} = { id => $id, dep => $d->{id}, branch => $br->{name}, files => {}, user => $c->{user}{id} };
    return [ 201, { data => { uploadId => $id, branchName => S($br->{name}) } } ];
}, summary => 'Start a chunked upload', tag => 'data-model', body => 'UploadStart', ok => 201, resp => 'Wrapped');

sub upload_of {
    my ($c, $d, $bd) = @_;
    err(400, "field 'uploadId' is required") unless is_str($bd->{uploadId});
    my $u = S_->{uploads}{ $bd->{uploadId} };
    err(404, "upload '$bd->{uploadId}' not found") unless $u && $u->{dep} eq $d->{id};
    return $u;
}

Blind::App::route(POST => "$P/data-model/upload/file", sub {
    my $c = shift;
    my $d = dep($c);
    my $bd = req_obj($c->{body});
    my $u = upload_of($c, $d, $bd);
    check_path($bd->{path});
    err(400, "field 'content' must be a string") unless is_str($bd->{content});
    my $content = $bd->{content};
    if (($bd->{encoding} // '') eq 'base64') {
        $content = decode_base64($content);
        $content = eval { Encode::decode('UTF-8', $content, Encode::FB_CROAK()) } // err(400, 'base64 content is not UTF-8 text');
    }
    $u->{files}{ $bd->{path} } .= $content;
    return [ 200, { data => { uploadId => $u->{id}, path => S($bd->{path}), size => I(length $u->{files}{ $bd->{path} }) } } ];
}, summary => 'Upload one file (or chunk)', tag => 'data-model', body => 'UploadFile', resp => 'Wrapped');

Blind::App::route(POST => "$P/data-model/upload/finish", sub {
    my $c = shift;
    my $d = dep($c);
    my $bd = req_obj($c->{body});
    my $u = upload_of($c, $d, $bd);
    $d->{files}{ $u->{branch} }{$_} = $u->{files}{$_} for keys %{ $u->{files} };
    delete S_->{uploads}{ $u->{id} };
    return [ 200, { data => { uploadId => $u->{id}, branchName => S($u->{branch}), files => [ sort keys %{ $u->{files} } ] } } ];
}, summary => 'Finish a chunked upload', tag => 'data-model', body => 'UploadFinish', resp => 'Wrapped');

# ---------- dev mode ----------
sub personal_branch {
    my ($d, $u, $create) = @_;
    my ($bd) = grep { $_->{kind} eq 'personal' && ($_->{owner} // 0) == $u->{id} } @{ $d->{branches} };
    if (!$bd && $create) {
        my $n = 'dev-' . ($u->{email} =~ s/\@.*//r =~ s/[^A-Za-z0-9_-]/-/gr);
        $bd = Blind::Store::add_branch($d, $n, 'main', 'personal', $u->{id}, 0);
    }
    return $bd;
}

Blind::App::route(POST => "$P/dev-mode", sub {
    my $c = shift;
    my $d = dep($c);
    need_role($c->{user}, 'DEVELOPER', 'dev mode');
    my $bd = personal_branch($d, $c->{user}, 1);
    $bd->{devMode} = 1;
    return [ 200, wrap({ devMode => TRUE, branch => Blind::Store::ser_branch($bd) }) ];
}, summary => 'Start dev mode', tag => 'dev-mode', resp => 'Wrapped');

Blind::App::route(DELETE => "$P/dev-mode", sub {
    my $c = shift;
    my $d = dep($c);
    need_role($c->{user}, 'DEVELOPER', 'dev mode');
    my $bd = personal_branch($d, $c->{user}, 0);
    $bd->{devMode} = 0 if $bd;
    return [ 204 ];
}, summary => 'Stop dev mode', tag => 'dev-mode', ok => 204);

# ---------- branches ----------
Blind::App::route(GET => "$P/branches", sub {
    my $c = shift;
    my $d = dep($c);
    my @all = map { { %{ Blind::Store::ser_branch($_) }, kind => S($_->{kind}) } } @{ $d->{branches} };
    my ($items, $pi) = cursor_page(\@all, $c->{q});
    return [ 200, { items => $items, data => $items, pageInfo => $pi } ];
}, summary => 'List branches', tag => 'branches', params => [qw(first after)], resp => 'BranchList');

Blind::App::route(POST => "$P/branches", sub {
    my $c = shift;
    my $d = dep($c);
    need_role($c->{user}, 'DEVELOPER', 'create branch');
    my $bd = req_obj($c->{body});
    my $name = req_str($bd, 'name', max => 200);
    err(400, 'branch name may contain letters, digits, ".", "_", "/" and "-" only') unless $name =~ m{^[A-Za-z0-9._/-]+\z};
    err(409, "branch '$name' already exists") if Blind::Store::find_branch($d, name => $name);
    my $from = branch_from($d, $bd->{from});
    my $act = opt_bool($bd, 'activate');
    my $nb = Blind::Store::add_branch($d, $name, $from->{name}, 'shared', undef, 0);
    $d->{files}{$name} = { %{ $d->{files}{ $from->{name} } // {} } };
    $nb->{devMode} = 1 if $act;
    return [ 201, wrap(Blind::Store::ser_branch($nb)) ];
}, summary => 'Create a branch', tag => 'branches', body => 'BranchCreate', ok => 201, resp => 'BranchWrapped');

Blind::App::route(DELETE => "$P/branches", sub {
    my $c = shift;
    my $d = dep($c);
    need_role($c->{user}, 'DEVELOPER', 'delete branch');
    err(400, "query parameter 'branchName' is required") unless defined $c->{q}{branchName} && length $c->{q}{branchName};
    my $bd = branch_from($d, $c->{q}{branchName});
    my $rm = Blind::Util::qbool($c->{q}, 'removeOnUpstream') // 0;
    err(400, 'the production branch cannot be deleted') if $bd->{kind} eq 'production';
    $_->{parentBranch} = $bd->{parentBranch} for grep { ($_->{parentBranch} // '') eq $bd->{name} } @{ $d->{branches} };
    $d->{branches} = [ grep { $_ != $bd } @{ $d->{branches} } ];
    delete $d->{files}{ $bd->{name} };
    return [ 204 ];
}, summary => 'Delete a branch (children are re-parented)', tag => 'branches', params => [qw(branchName removeOnUpstream)], ok => 204);

sub newhash { my $bd = shift; $bd->{lastHash} = sha1_hex($bd->{name} . rand() . time()); $bd->{updatedAt} = time() }

Blind::App::route(POST => "$P/commit", sub {
    my $c = shift;
    my $d = dep($c);
    need_role($c->{user}, 'DEVELOPER', 'commit');
    my $bd = req_obj($c->{body});
    my $br = branch_from($d, $bd->{branchName});
    my $msg = req_str($bd, 'message', max => 2000);
    newhash($br);
    return [ 200, wrap({ branch => Blind::Store::ser_branch($br), commit => { hash => S($br->{lastHash}), message => S($msg), author => S($c->{user}{email}) } }) ];
}, summary => 'Commit a branch', tag => 'branches', body => 'CommitRequest', resp => 'Wrapped');

Blind::App::route(POST => "$P/pull", sub {
    my $c = shift;
    my $d = dep($c);
    need_role($c->{user}, 'DEVELOPER', 'pull');
    my $bd = $c->{body} // {};
    req_obj($bd);
    my $br = branch_from($d, $bd->{branchName});
    return [ 200, wrap({ branch => Blind::Store::ser_branch($br), updated => FALSE }) ];
}, summary => 'Pull a branch from upstream', tag => 'branches', body => 'BranchRef', resp => 'Wrapped');

sub do_merge {
    my ($d, $src, $dst) = @_;
    err(400, 'a branch cannot be merged into itself') if $src == $dst;
    $d->{files}{ $dst->{name} } = { %{ $d->{files}{ $dst->{name} } // {} }, %{ $d->{files}{ $src->{name} } // {} } };
    newhash($dst);
    return { source => Blind::Store::ser_branch($src), target => Blind::Store::ser_branch($dst), merged => TRUE };
}

Blind::App::route(POST => "$P/merge", sub {
    my $c = shift;
    my $d = dep($c);
    need_role($c->{user}, 'DEVELOPER', 'merge');
    my $bd = req_obj($c->{body});
    err(400, "field 'branchName' is required") unless defined $bd->{branchName};
    my $src = branch_from($d, $bd->{branchName});
    my $dst = branch_from($d, $bd->{into} // ($src->{parentBranch} ne '' ? $src->{parentBranch} : 'main'));
    return [ 200, wrap(do_merge($d, $src, $dst)) ];
}, summary => 'Merge a branch into another (default: its parent)', tag => 'branches', body => 'MergeRequest', resp => 'Wrapped');

Blind::App::route(POST => "$P/merge-to-default", sub {
    my $c = shift;
    my $d = dep($c);
    need_role($c->{user}, 'DEVELOPER', 'merge');
    my $bd = req_obj($c->{body});
    err(400, "field 'branchName' is required") unless defined $bd->{branchName};
    my $src = branch_from($d, $bd->{branchName});
    return [ 200, wrap(do_merge($d, $src, branch_from($d, 'main'))) ];
}, summary => 'Merge a branch into the default branch', tag => 'branches', body => 'BranchRef', resp => 'Wrapped');

Blind::App::route(POST => "$P/github/connect", sub {
    my $c = shift;
    my $d = dep($c);
    need_role($c->{user}, 'ADMIN', 'connect repository');
    my $bd = req_obj($c->{body});
    my $repo = req_str($bd, 'repository', max => 200);
    err(400, "repository must look like owner/name") unless $repo =~ m{^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+\z};
    my $br = opt_str($bd, 'branch', max => 200) // 'main';
    $d->{github} = { repository => $repo, branch => $br, connectedAt => ts_iso() };
    $d->{creation_method} = 'github';
    return [ 200, wrap({ %{ $d->{github} }, connected => TRUE }) ];
}, summary => 'Connect to a repository', tag => 'github', body => 'GithubConnect', resp => 'Wrapped');

1;
