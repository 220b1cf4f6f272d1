package Blind::Util;
# Shared helpers: JSON, errors, type checks, timestamps, pagination, ids.
use strict;
use utf8;
use warnings;
use JSON::PP ();
use B ();
use POSIX qw(strftime floor);
use MIME::Base64 qw(encode_base64 decode_base64);
use Digest::SHA qw(sha1_hex sha256_hex hmac_sha512);
use Exporter 'import';

our @EXPORT = qw(
  err I S B ts_iso now json_enc json_dec is_num is_int is_str is_bool is_obj is_arr
  req_obj opt_str req_str opt_int opt_bool q_int cursor_page offset_page uuid4
  TRUE FALSE b64url jwt_sign clone_data need_role role_rank qbool
);

use constant TRUE  => JSON::PP::true;
use constant FALSE => JSON::PP::false;

my $JSON_OUT = JSON::PP->new->utf8->allow_nonref->allow_blessed->convert_blessed;
my $JSON_IN  = JSON::PP->new->utf8->allow_nonref->max_depth(200);

sub json_enc { $JSON_OUT->encode($_[0]) }
sub json_dec { $JSON_IN->decode($_[0]) }

# die with an HTTP error; caught by the dispatcher
sub err {
    my ($status, $msg, %extra) = @_;
    die { status => $status, error => $msg, %extra };
}

sub I { my $v = shift; return undef unless defined $v; return 0 + $v }
sub S { my $v = shift; return undef unless defined $v; return "" . $v }
sub B { return $_[0] ? TRUE : FALSE }

sub now { time() }

# second precision, UTC, "Z" suffix
sub ts_iso {
    my $t = shift;
    $t = time() unless defined $t;
    return strftime('%Y-%m-%dT%H:%M:%SZ', gmtime(int $t));
}

sub is_bool { my $v = shift; return defined($v) && JSON::PP::is_bool($v) }
sub is_obj  { ref($_[0]) eq 'HASH' }
sub is_arr  { ref($_[0]) eq 'ARRAY' }

sub _numflags {
    my $v = shift;
    return 0 if !defined $v || ref $v;
    my $f = B::svref_2object(\$v)->FLAGS;
    return ($f & (B::SVp_IOK() | B::SVp_NOK())) && !($f & B::SVp_POK());
}

sub is_num {
    my $v = shift;
    return 0 unless _numflags($v);
    return 0 if $v != $v;                  # NaN
    return 0 if $v == 9**9**9 || $v == -9**9**9;
    return 1;
}

sub is_int {
    my $v = shift;
    return 0 unless is_num($v);
    return 0 if abs($v) > 9007199254740991;
    return $v == int($v);
}

sub is_str {
    my $v = shift;
    return 0 if !defined $v || ref $v;
    return !_numflags($v);
}

sub req_obj {
    my ($body, $what) = @_;
    err(400, ($what // 'request body') . ' must be a JSON object') unless is_obj($body);
    return $body;
}

sub req_str {
    my ($h, $k, %o) = @_;
    my $v = $h->{$k};
    err(400, "field '$k' is required") unless defined $v;
    err(400, "field '$k' must be a string") unless is_str($v);
    if (!$o{allow_empty}) {
        err(400, "field '$k' must not be empty") unless length($v =~ s/^\s+|\s+$//gr);
    }
    err(400, "field '$k' is too long (max $o{max})") if $o{max} && length($v) > $o{max};
    return $v;
}

sub opt_str {
    my ($h, $k, %o) = @_;
    return undef unless exists $h->{$k};
    my $v = $h->{$k};
    if (!defined $v) {
        err(400, "field '$k' must not be null") unless $o{nullable};
        return undef;
    }
    err(400, "field '$k' must be a string") unless is_str($v);
    err(400, "field '$k' must not be empty") if !$o{allow_empty} && !length($v =~ s/^\s+|\s+$//gr);
    err(400, "field '$k' is too long (max $o{max})") if $o{max} && length($v) > $o{max};
    return $v;
}

sub opt_int {
    my ($h, $k, %o) = @_;
    return undef unless exists $h->{$k};
    my $v = $h->{$k};
    if (!defined $v) {
        err(400, "field '$k' must not be null") unless $o{nullable};
        return undef;
    }
    err(400, "field '$k' must be an integer") unless is_int($v);
    err(400, "field '$k' must be >= $o{min}") if defined $o{min} && $v < $o{min};
    err(400, "field '$k' must be <= $o{max}") if defined $o{max} && $v > $o{max};
    return 0 + $v;
}

sub opt_bool {
    my ($h, $k, %o) = @_;
    return undef unless exists $h->{$k};
    my $v = $h->{$k};
    if (!defined $v) {
        err(400, "field '$k' must not be null") unless $o{nullable};
        return undef;
    }
    err(400, "field '$k' must be a boolean") unless is_bool($v);
    return $v ? 1 : 0;
}

# query-string integer; returns undef when absent
sub q_int {
    my ($q, $k, $min) = @_;
    return undef unless exists $q->{$k};
    my $v = $q->{$k};
    err(400, "query parameter '$k' must be an integer") unless defined $v && $v =~ /^-?[0-9]+$/;
    my $n;
    if (length($v =~ s/^-?0*//r) > 15) { $n = ($v =~ /^-/) ? -1e15 : 1e15 }
    else { $n = 0 + $v }
    err(400, "query parameter '$k' must be >= $min") if defined $min && $n < $min;
    return $n;
}

sub qbool {
    my ($q, $k) = @_;
    return undef unless exists $q->{$k};
    my $v = lc($q->{$k} // '');
    return 1 if $v eq 'true' || $v eq '1';
    return 0 if $v eq 'false' || $v eq '0';
    err(400, "query parameter '$k' must be true or false");
}

# Cursor: standard base64 (with padding) of "pos:N".
sub enc_cursor { my $n = shift; my $c = encode_base64("pos:$n", ''); return $c }
sub dec_cursor {
    my $c = shift;
    return undef unless defined $c && $c =~ m{^[A-Za-z0-9+/]+={0,2}$};
    my $raw = decode_base64($c);
    return undef unless defined $raw && $raw =~ /^pos:([0-9]{1,12})$/;
    return 0 + $1;
}

# Cursor pagination over an array. Returns (\@page, $pageInfo).
# Default page size 20 for all cursor lists; no maximum.
# An undecodable cursor yields an empty page.
sub cursor_page {
    my ($list, $q, %o) = @_;
    my $first = q_int($q, 'first', 1);
    my $start = 0;
    my $bad = 0;
    if (exists $q->{after}) {
        my $p = dec_cursor($q->{after});
        if (!defined $p) { $bad = 1 } else { $start = $p }
    }
    my $size = $first // ($o{all_by_default} && !exists $q->{after} ? scalar(@$list) : ($o{default} // 20));
    $size = 1e15 if $size > 1e15;
    my @page;
    if (!$bad && $start < @$list) {
        my $end = $start + $size - 1;
        $end = $#$list if $end > $#$list;
        @page = @{$list}[$start .. $end];
    }
    my $pi = {
        hasNextPage     => B(!$bad && $start + @page < @$list),
        hasPreviousPage => B(!$bad && $start > 0),
    };
    if (@page) {
        $pi->{startCursor} = enc_cursor($start + 1);
        $pi->{endCursor}   = enc_cursor($start + @page);
    }
    return (\@page, $pi);
}

# Offset pagination; returns (\@slice, {offset, limit, total})
sub offset_page {
    my ($list, $q, %o) = @_;
    my $offset = q_int($q, 'offset', 0) // 0;
    my $limit  = q_int($q, 'limit', $o{limit_min} // 1) // 20;
    my @slice;
    if ($limit > 0 && $offset < @$list) {
        my $end = $offset + $limit - 1;
        $end = $#$list if $end > $#$list;
        @slice = @{$list}[$offset .. $end];
    }
    return (\@slice, { offset => I($offset), limit => I($limit), total => I(scalar @$list) });
}

sub uuid4 {
    my @b = map { int(rand(256)) } 1 .. 16;
    $b[6] = ($b[6] & 0x0f) | 0x40;
    $b[8] = ($b[8] & 0x3f) | 0x80;
    my $h = join '', map { sprintf '%02x', $_ } @b;
    return join '-', substr($h, 0, 8), substr($h, 8, 4), substr($h, 12, 4), substr($h, 16, 4), substr($h, 20);
}

sub b64url { my $s = encode_base64($_[0], ''); $s =~ tr{+/}{-_}; $s =~ s/=+$//; return $s }

sub jwt_sign {
    my ($claims, $secret) = @_;
    my $h = b64url(json_enc({ alg => 'HS512', typ => 'JWT' }));
    my $p = b64url(json_enc($claims));
    my $sig = b64url(hmac_sha512("$h.$p", $secret));
    return "$h.$p.$sig";
}

sub clone_data {
    my $v = shift;
    return $v unless defined $v;
    return $JSON_IN->decode($JSON_OUT->encode($v));
}

my %RANK = (VIEWER => 1, AI_BI_USER => 2, DEVELOPER => 3, ADMIN => 4);
sub role_rank { $RANK{ $_[0] } // 0 }

sub need_role {
    my ($user, $role, $what) = @_;
    err(403, "this operation requires the $role role or higher" . ($what ? " ($what)" : ''))
      unless role_rank($user->{role}) >= role_rank($role);
}

1;
