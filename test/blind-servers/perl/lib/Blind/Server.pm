package Blind::Server;
# Single-process IO::Select event loop; HTTP/1.1 parsing with keep-alive and pipelining.
# Each complete request is handled to completion before the next, so writes never interleave.
use strict;
use utf8;
use warnings;
use IO::Socket::INET;
use IO::Select;
use Errno qw(EAGAIN EWOULDBLOCK EINTR);
use Blind::Util;

use constant MAX_HEADER => 65536;
use constant MAX_BODY   => 4 * 1024 * 1024;

my %REASON = (100 => 'Continue', 200 => 'OK', 201 => 'Created', 202 => 'Accepted', 204 => 'No Content', 308 => 'Permanent Redirect',
    400 => 'Bad Request', 401 => 'Unauthorized', 403 => 'Forbidden', 404 => 'Not Found', 405 => 'Method Not Allowed',
    409 => 'Conflict', 411 => 'Length Required', 413 => 'Payload Too Large', 414 => 'URI Too Long', 431 => 'Request Header Fields Too Large',
    500 => 'Internal Server Error', 501 => 'Not Implemented', 505 => 'HTTP Version Not Supported');

sub new {
    my ($class, %o) = @_;
    my $ls = IO::Socket::INET->new(LocalAddr => '127.0.0.1', LocalPort => $o{port} // 0, Listen => 256, ReuseAddr => 1, Proto => 'tcp')
      or die "cannot listen: $!";
    $ls->blocking(0);
    return bless { ls => $ls, handler => $o{handler}, conns => {} }, $class;
}

sub port { $_[0]{ls}->sockport }

sub run {
    my $self = shift;
    my $ls = $self->{ls};
    my $rsel = IO::Select->new($ls);
    $SIG{PIPE} = 'IGNORE';
    while (1) {
        my $wsel = IO::Select->new(map { $_->{sock} } grep { length $_->{out} } values %{ $self->{conns} });
        my ($r, $w) = IO::Select->select($rsel, $wsel, undef, 5);
        for my $s (@{ $r || [] }) {
            if ($s == $ls) {
                while (my $c = $ls->accept) {
                    $c->blocking(0);
                    $self->{conns}{ fileno $c } = { sock => $c, in => '', out => '', close => 0, cont => 0 };
                    $rsel->add($c);
                }
                next;
            }
            my $cn = $self->{conns}{ fileno $s } or next;
            my $n = sysread($s, my $buf, 65536);
            if (!defined $n) { next if $! == EAGAIN || $! == EWOULDBLOCK || $! == EINTR; $self->drop($cn, $rsel); next }
            if ($n == 0) { $self->drop($cn, $rsel); next }
            $cn->{in} .= $buf;
            $self->process($cn);
            $self->flush($cn, $rsel);
        }
        for my $s (@{ $w || [] }) {
            my $cn = $self->{conns}{ fileno $s } or next;
            $self->flush($cn, $rsel);
        }
    }
}

sub drop {
    my ($self, $cn, $rsel) = @_;
    $rsel->remove($cn->{sock});
    delete $self->{conns}{ fileno $cn->{sock} };
    close $cn->{sock};
}

sub flush {
    my ($self, $cn, $rsel) = @_;
    while (length $cn->{out}) {
        my $n = syswrite($cn->{sock}, $cn->{out});
        if (!defined $n) {
            return if $! == EAGAIN || $! == EWOULDBLOCK || $! == EINTR;
            $self->drop($cn, $rsel);
            return;
        }
        substr($cn->{out}, 0, $n, '');
    }
    $self->drop($cn, $rsel) if $cn->{close} && !length $cn->{out};
}

sub respond {
    my ($cn, $status, $headers, $body, $close) = @_;
    $body //= '';
    my $h = "HTTP/1.1 $status " . ($REASON{$status} // 'Status') . "\r\n";
    my @hs = @{ $headers || [] };
    # Fixed after the first suite run: a wide character (a non-ASCII slug in Location) killed the process in syswrite.
    while (my ($k, $v) = splice(@hs, 0, 2)) { utf8::encode($v) if utf8::is_utf8($v); $h .= "$k: $v\r\n" }
    utf8::encode($body) if utf8::is_utf8($body);
    $h .= "Content-Length: " . length($body) . "\r\n" unless $status == 204 || $status == 100;
    $h .= "Connection: close\r\n" if $close;
    $h .= "\r\n";
    $cn->{out} .= $h . ($status == 204 ? '' : $body);
    $cn->{close} = 1 if $close;
}

sub bad {
    my ($cn, $status, $msg) = @_;
    respond($cn, $status, [ 'Content-Type' => 'application/json' ], json_enc({ error => $msg }), 1);
    $cn->{in} = '';
}

sub process {
    my ($self, $cn) = @_;
    while (!$cn->{close} && length $cn->{in}) {
        $cn->{in} =~ s/^(?:\r?\n)+//;    # tolerate stray blank lines between requests
        my $hend = index($cn->{in}, "\r\n\r\n");
        my $seplen = 4;
        if ($hend < 0) { my $alt = index($cn->{in}, "\n\n"); if ($alt >= 0) { $hend = $alt; $seplen = 2 } }
        if ($hend < 0) {
            return bad($cn, 431, 'request headers too large') if length $cn->{in} > MAX_HEADER;
            return;
        }
        return bad($cn, 431, 'request headers too large') if $hend > MAX_HEADER;
        my $head = substr($cn->{in}, 0, $hend);
        my @lines = split /\r?\n/, $head;
        my $rl = shift @lines // '';
        my ($method, $target, $ver) = $rl =~ m{^([A-Za-z]+) (\S+) HTTP/(\d\.\d)$};
        return bad($cn, 400, 'malformed request line') unless $method;
        return bad($cn, 505, 'unsupported HTTP version') unless $ver eq '1.1' || $ver eq '1.0';
        return bad($cn, 414, 'request target too long') if length $target > 16384;
        my %h;
        for my $l (@lines) {
            my ($k, $v) = $l =~ /^([!#\$%&'*+\-.^_`|~0-9A-Za-z]+):[ \t]*(.*?)[ \t]*$/ or return bad($cn, 400, 'malformed header line');
            $k = lc $k;
            $h{$k} = exists $h{$k} ? "$h{$k}, $v" : $v;
        }
        my $bstart = $hend + $seplen;
        my $body = '';
        my $consumed;
        if (($h{'transfer-encoding'} // '') =~ /chunked/i) {
            my $pos = $bstart;
            my $done = 0;
            while (1) {
                my $le = index($cn->{in}, "\r\n", $pos);
                last if $le < 0;
                my $sz = substr($cn->{in}, $pos, $le - $pos);
                $sz =~ s/;.*//;
                return bad($cn, 400, 'malformed chunk size') unless $sz =~ /^\s*([0-9a-fA-F]{1,8})\s*$/;
                my $n = hex $1;
                if ($n == 0) {
                    my $te = index($cn->{in}, "\r\n\r\n", $le);
                    if ($te == $le) { $consumed = $le + 4; $done = 1; last }
                    last if $te < 0;
                    $consumed = $te + 4; $done = 1; last;
                }
                last if length($cn->{in}) < $le + 2 + $n + 2;
                $body .= substr($cn->{in}, $le + 2, $n);
                return bad($cn, 413, 'request body too large') if length $body > MAX_BODY;
                $pos = $le + 2 + $n + 2;
            }
            if (!$done) {
                return bad($cn, 413, 'request body too large') if length($cn->{in}) > MAX_BODY + 65536;
                $self->maybe_continue($cn, \%h);
                return;
            }
        } else {
            my $cl = $h{'content-length'};
            if (defined $cl) {
                return bad($cn, 400, 'invalid Content-Length') unless $cl =~ /^\s*([0-9]{1,12})\s*$/;
                $cl = 0 + $1;
                return bad($cn, 413, 'request body too large') if $cl > MAX_BODY;
            } else { $cl = 0 }
            if (length($cn->{in}) < $bstart + $cl) { $self->maybe_continue($cn, \%h); return }
            $body = substr($cn->{in}, $bstart, $cl);
            $consumed = $bstart + $cl;
        }
        substr($cn->{in}, 0, $consumed, '');
        $cn->{cont} = 0;
        my $close = ($ver eq '1.0' && ($h{connection} // '') !~ /keep-alive/i) || ($h{connection} // '') =~ /\bclose\b/i;
        my ($status, $hdrs, $rbody);
        my $ok = eval { ($status, $hdrs, $rbody) = $self->{handler}->(uc $method, $target, \%h, $body); 1 };
        if (!$ok) {
            warn "handler crashed: $@";
            ($status, $hdrs, $rbody) = (400, [ 'Content-Type' => 'application/json' ], json_enc({ error => 'request could not be processed' }));
        }
        $rbody = '' if uc($method) eq 'HEAD';
        respond($cn, $status, $hdrs, $rbody, $close);
    }
}

sub maybe_continue {
    my ($self, $cn, $h) = @_;
    if (!$cn->{cont} && ($h->{expect} // '') =~ /100-continue/i) {
        $cn->{out} .= "HTTP/1.1 100 Continue\r\n\r\n";
        $cn->{cont} = 1;
    }
}

1;
