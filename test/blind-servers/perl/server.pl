#!/usr/bin/env perl
# Blind Perl implementation of the analytics platform management API.
# Usage: perl server.pl --port N   (0 = any free port). Listens on 127.0.0.1.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Getopt::Long;
use IO::Handle;
use Blind::Util;
use Blind::Store;
use Blind::App;
use Blind::Core;
use Blind::Workspace;
use Blind::Build;
use Blind::Admin;
use Blind::OpenAPI;
use Blind::Server;

my $port = 0;
GetOptions('port=i' => \$port) or die "usage: $0 --port N\n";
srand(time() ^ $$);
Blind::Store::init();
my $srv = Blind::Server->new(port => $port, handler => \&Blind::App::handle);
my $S = $Blind::Store::S;
my %tokens = %{ $S->{token_by_role} };
my $line = {
    baseUrl  => 'http://127.0.0.1:' . $srv->port,
    token    => $tokens{admin},
    tokens   => \%tokens,
    fixtures => { mutableDeploymentId => "$S->{fixtures}{mutable}", workbookLimitDeploymentId => "$S->{fixtures}{limit}" },
};
STDOUT->autoflush(1);
print Blind::Util::json_enc($line), "\n";
print STDERR "blind-perl listening on 127.0.0.1:" . $srv->port . " with " . scalar(@Blind::App::ROUTES) . " routes\n";
$srv->run;
