package Blind::App;
# Routing, authentication, request decoding and error formatting.
use strict;
use utf8;
use warnings;
use Encode qw(decode FB_CROAK);
use Blind::Util;
use Blind::Store;

our @ROUTES;    # { method, path, segs, handler, meta }

sub route {
    my ($method, $path, $handler, %meta) = @_;
    my @segs = grep { length } split m{/}, $path;
    push @ROUTES, { method => $method, path => $path, segs => \@segs, trailing => ($path =~ m{/$} ? 1 : 0),
                    handler => $handler, meta => \%meta,
                    literals => scalar(grep { !/^\{/ } @segs) };
}

sub _pct {
    my $s = shift;
    $s =~ s/%([0-9A-Fa-f]{2})/chr(hex $1)/ge;
    my $d = eval { decode('UTF-8', $s, FB_CROAK) };
    err(400, 'invalid percent-encoding or UTF-8 in request target') unless defined $d;
    return $d;
}

sub match_path {
    my ($segs) = @_;
    my @hits;
    for my $r (@ROUTES) {
        next unless @{ $r->{segs} } == @$segs;
        my %p;
        my $ok = 1;
        for my $i (0 .. $#$segs) {
            my $rs = $r->{segs}[$i];
            if ($rs =~ /^\{(\w+)\}$/) { $p{$1} = $segs->[$i] }
            elsif ($rs ne $segs->[$i]) { $ok = 0; last }
        }
        push @hits, [ $r, \%p ] if $ok;
    }
    return sort { $b->[0]{literals} <=> $a->[0]{literals} } @hits;
}

sub error_body {
    my ($path, $e) = @_;
    my $body = { error => $e->{error} };
    $body->{code} = $e->{code} if $e->{code};
    $body->{message} = $e->{error} if $path =~ m{^/build/};
    for my $k (qw(details)) { $body->{$k} = $e->{$k} if exists $e->{$k} }
    return $body;
}

sub handle {
    my ($method, $target, $h, $raw) = @_;
    my ($path, $qs) = split /\?/, $target, 2;
    $path //= '';
    my $res = eval { _handle($method, $path, $qs, $h, $raw) };
    if (!$res) {
        my $e = $@;
        if (ref $e ne 'HASH') {
            warn "internal error on $method $path: $e";
            $e = { status => 400, error => 'request could not be processed' };
        }
        my @hdr = ('Content-Type' => 'application/json');
        push @hdr, 'WWW-Authenticate' => 'Bearer' if $e->{status} == 401;
        push @hdr, 'Location' => $e->{location} if $e->{location};
        return ($e->{status}, \@hdr, json_enc(error_body($path, $e)));
    }
    return @$res;
}

sub _handle {
    my ($method, $path, $qs, $h, $raw) = @_;
    err(400, 'request target must be an absolute path') unless $path =~ m{^/};
    my @segs = map { _pct($_) } grep { length } split m{/}, $path;
    my $trailing = $path =~ m{/$} && $path ne '/';

    my @hits = match_path(\@segs);
    err(404, "no route for $path") unless @hits;
    my @exact = grep { $_->[0]{trailing} == ($trailing ? 1 : 0) } @hits;
    if (!@exact) {
        # canonical spelling differs only by a trailing slash: permanent redirect
        my $canon = $path;
        if ($trailing) { $canon =~ s{/+$}{} } else { $canon .= '/' }
        $canon .= "?$qs" if defined $qs && length $qs;
        err(308, "use the canonical path $canon", location => $canon);
    }
    my ($hit) = grep { $_->[0]{method} eq $method } @exact;
    err(404, "no route for $method $path") unless $hit;
    my ($r, $pp) = @$hit;

    # query string: last value wins; all values kept in qa
    my (%q, %qa);
    if (defined $qs && length $qs) {
        for my $pair (split /&/, $qs) {
            next unless length $pair;
            my ($k, $v) = split /=/, $pair, 2;
            $v //= '';
            $k =~ tr/+/ /; $v =~ tr/+/ /;
            $k = _pct($k); $v = _pct($v);
            $q{$k} = $v;
            push @{ $qa{$k} }, $v;
        }
    }

    my $user = authenticate($h->{authorization});

    my $body;
    if (length($raw // '') && $raw =~ /\S/) {
        $body = eval { json_dec($raw) };
        if ($@ || (!defined $body && $raw !~ /^\s*null\s*$/)) {
            err(400, 'request body is not valid JSON');
        }
    }
    my $ctx = { method => $method, path => $path, p => $pp, q => \%q, qa => \%qa, body => $body, user => $user,
                headers => $h, build => ($path =~ m{^/build/} ? 1 : 0), route => $r };
    my $out = $r->{handler}->($ctx);
    # handlers return [status, data] or [status, data, headers] or {raw...}
    if (ref $out eq 'HASH') {
        return [ $out->{status}, $out->{headers}, $out->{body} ];
    }
    my ($status, $data, $hdrs) = @$out;
    my @hdr = @{ $hdrs || [] };
    return [ $status, \@hdr, '' ] if $status == 204;
    push @hdr, 'Content-Type' => 'application/json';
    return [ $status, \@hdr, json_enc($data) ];
}

sub authenticate {
    my $a = shift;
    err(401, 'missing Authorization header') unless defined $a && length $a;
    my ($scheme, $cred) = $a =~ /^\s*(\S+)\s+(\S+)\s*$/;
    err(401, 'malformed Authorization header; expected "Bearer <API key>"') unless $scheme;
    err(401, 'unsupported authorization scheme; use Bearer') unless lc $scheme eq 'bearer';
    my $S = $Blind::Store::S;
    if ($cred =~ /^[\w-]+\.[\w-]+\.[\w-]+$/) {
        err(401, 'metadata tokens are not API keys and are only valid for metadata endpoints');
    }
    my $uid = $S->{tokens}{$cred};
    err(401, 'invalid API key') unless defined $uid;
    my $u = $S->{users}{$uid};
    err(401, 'API key belongs to a deactivated user') unless $u && $u->{active};
    return $u;
}

# ---- shared lookups for handlers ----
sub dep {
    my ($ctx) = @_;
    my $id = $ctx->{p}{deploymentId};
    my $d = defined $id ? $Blind::Store::S->{deployments}{$id} : undef;
    err(404, "deployment '" . ($id // '') . "' not found") unless $d;
    return $d;
}

sub path_int {
    my ($ctx, $name, $what) = @_;
    my $v = $ctx->{p}{$name};
    err(404, ($what // $name) . " '$v' not found") unless defined $v && $v =~ /^[0-9]{1,15}$/;
    return 0 + $v;
}

1;
