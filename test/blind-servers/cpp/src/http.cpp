// HTTP/1.1 server: thread per connection, keep-alive, Content-Length and chunked bodies.
#include "http.hpp"
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>
#include <thread>

static const size_t kMaxHeader = 64 * 1024;
static const size_t kMaxBody = 6 * 1024 * 1024;
static std::atomic<int> g_conns{0};

const char* reasonPhrase(int s) {
  switch (s) {
    case 100: return "Continue";
    case 200: return "OK";
    case 201: return "Created";
    case 202: return "Accepted";
    case 204: return "No Content";
    case 307: return "Temporary Redirect";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 402: return "Payment Required";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 411: return "Length Required";
    case 413: return "Content Too Large";
    case 414: return "URI Too Long";
    case 415: return "Unsupported Media Type";
    case 422: return "Unprocessable Content";
    case 423: return "Locked";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 501: return "Not Implemented";
    case 505: return "HTTP Version Not Supported";
    default: return "Status";
  }
}

bool percentDecode(const std::string& in, std::string& out, bool plusSpace) {
  out.clear();
  auto hv = [](char h) -> int {
    if (h >= '0' && h <= '9') return h - '0';
    if (h >= 'a' && h <= 'f') return h - 'a' + 10;
    if (h >= 'A' && h <= 'F') return h - 'A' + 10;
    return -1;
  };
  for (size_t i = 0; i < in.size(); i++) {
    char c = in[i];
    if (c == '%') {
      if (i + 2 >= in.size()) return false;
      int a = hv(in[i + 1]), b = hv(in[i + 2]);
      if (a < 0 || b < 0) return false;
      out += (char)(a * 16 + b);
      i += 2;
    } else if (c == '+' && plusSpace) out += ' ';
    else out += c;
  }
  return true;
}

int httpListen(int port, int& fdOut) {
  signal(SIGPIPE, SIG_IGN);
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons((uint16_t)port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(fd, (sockaddr*)&a, sizeof a) < 0) { close(fd); return -1; }
  if (listen(fd, 512) < 0) { close(fd); return -1; }
  socklen_t l = sizeof a;
  getsockname(fd, (sockaddr*)&a, &l);
  fdOut = fd;
  return ntohs(a.sin_port);
}

static bool sendAll(int fd, const char* p, size_t n) {
  while (n) {
    ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
    if (w < 0) { if (errno == EINTR) continue; return false; }
    p += w; n -= (size_t)w;
  }
  return true;
}
static bool sendStr(int fd, const std::string& s) { return sendAll(fd, s.data(), s.size()); }

struct Conn {
  int fd;
  std::string buf;
  bool eof = false;
  // read more data; false on EOF/error/timeout
  bool more() {
    char tmp[65536];
    while (true) {
      ssize_t r = recv(fd, tmp, sizeof tmp, 0);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) { eof = true; return false; }
      buf.append(tmp, (size_t)r);
      return true;
    }
  }
};

static void writeResponse(int fd, const Request& rq, Response& rs, bool keepAlive) {
  bool http10 = rq.version == "HTTP/1.0";
  std::string h = "HTTP/1.1 " + std::to_string(rs.status) + " " + reasonPhrase(rs.status) + "\r\n";
  for (auto& kv : rs.headers) h += kv.first + ": " + kv.second + "\r\n";
  bool noBody = rs.noBody || rs.status == 204 || rs.status == 304 || rq.method == "HEAD";
  bool chunk = !noBody && !http10 && (rs.chunked || rs.body.size() > 4096);
  if (!noBody) {
    if (chunk) h += "transfer-Encoding: chunked\r\n";
    else h += "content-Length: " + std::to_string(rs.body.size()) + "\r\n";
  }
  if (!keepAlive) h += "connection: close\r\n";
  else if (http10) h += "connection: keep-alive\r\n";
  h += "\r\n";
  if (noBody) { sendStr(fd, h); return; }
  if (!chunk) { h += rs.body; sendStr(fd, h); return; }
  if (!sendStr(fd, h)) return;
  const size_t piece = 2048;
  for (size_t off = 0; off < rs.body.size(); off += piece) {
    size_t n = std::min(piece, rs.body.size() - off);
    char len[32];
    snprintf(len, sizeof len, "%zx\r\n", n);
    std::string c = len;
    c.append(rs.body, off, n);
    c += "\r\n";
    if (!sendStr(fd, c)) return;
  }
  sendStr(fd, "0\r\n\r\n");
}

static void simpleError(int fd, int status, const std::string& msg) {
  std::string body = "{\n  \"error\": \"" + msg + "\",\n  \"kind\": \"MalformedRequest\"\n}";
  std::string h = "HTTP/1.1 " + std::to_string(status) + " " + reasonPhrase(status) + "\r\n";
  h += "content-Type: application/json; charset=\"utf-8\"\r\ncontent-Length: " + std::to_string(body.size()) +
       "\r\nconnection: close\r\n\r\n" + body;
  sendStr(fd, h);
}

static void handleConn(int fd, std::string remote, HttpHandler handler) {
  timeval tv{30, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  Conn c{fd};
  while (true) {
    // headers
    size_t he;
    while ((he = c.buf.find("\r\n\r\n")) == std::string::npos) {
      if (c.buf.size() > kMaxHeader) { simpleError(fd, 431, "request header too large"); goto done; }
      // tolerate leading empty lines
      if (!c.more()) goto done;
    }
    {
      std::string head = c.buf.substr(0, he);
      c.buf.erase(0, he + 4);
      while (head.size() >= 2 && head.compare(0, 2, "\r\n") == 0) head.erase(0, 2);
      Request rq;
      rq.remote = remote;
      size_t le = head.find("\r\n");
      std::string line = head.substr(0, le);
      size_t s1 = line.find(' '), s2 = line.rfind(' ');
      if (s1 == std::string::npos || s2 == s1) { simpleError(fd, 400, "malformed request line"); goto done; }
      rq.method = line.substr(0, s1);
      rq.target = line.substr(s1 + 1, s2 - s1 - 1);
      rq.version = line.substr(s2 + 1);
      if (rq.version != "HTTP/1.1" && rq.version != "HTTP/1.0") { simpleError(fd, 400, "unsupported HTTP version"); goto done; }
      for (char ch : rq.method) if (!isupper((unsigned char)ch)) { simpleError(fd, 400, "malformed method"); goto done; }
      if (rq.target.empty() || rq.target.find(' ') != std::string::npos) { simpleError(fd, 400, "malformed target"); goto done; }
      if (rq.target.size() > 16384) { simpleError(fd, 414, "request target too long"); goto done; }
      // header fields
      size_t pos = le == std::string::npos ? head.size() : le + 2;
      bool bad = false;
      while (pos < head.size()) {
        size_t e = head.find("\r\n", pos);
        if (e == std::string::npos) e = head.size();
        std::string f = head.substr(pos, e - pos);
        pos = e + 2;
        size_t colon = f.find(':');
        if (colon == std::string::npos || colon == 0 || f[0] == ' ' || f[0] == '\t') { bad = true; break; }
        std::string name = f.substr(0, colon), val = f.substr(colon + 1);
        for (auto& ch : name) { if (ch == ' ' || ch == '\t') bad = true; ch = (char)tolower((unsigned char)ch); }
        size_t a = 0, b = val.size();
        while (a < b && (val[a] == ' ' || val[a] == '\t')) a++;
        while (b > a && (val[b - 1] == ' ' || val[b - 1] == '\t')) b--;
        rq.headers.emplace_back(name, val.substr(a, b - a));
      }
      if (bad) { simpleError(fd, 400, "malformed header field"); goto done; }
      std::string te = rq.header("transfer-encoding"), cl = rq.header("content-length");
      bool keep = rq.version == "HTTP/1.1";
      std::string conn = rq.header("connection");
      for (auto& ch : conn) ch = (char)tolower((unsigned char)ch);
      if (conn.find("close") != std::string::npos) keep = false;
      if (conn.find("keep-alive") != std::string::npos) keep = true;
      if (!te.empty() && !cl.empty()) { simpleError(fd, 400, "both Transfer-Encoding and Content-Length"); goto done; }
      std::string expect = rq.header("expect");
      bool tooLarge = false;
      if (!te.empty()) {
        std::string tl = te;
        for (auto& ch : tl) ch = (char)tolower((unsigned char)ch);
        if (tl != "chunked") { simpleError(fd, 400, "unsupported transfer-encoding"); goto done; }
        if (!expect.empty()) sendStr(fd, "HTTP/1.1 100 Continue\r\n\r\n");
        while (true) {
          size_t e;
          while ((e = c.buf.find("\r\n")) == std::string::npos) {
            if (c.buf.size() > 4096) { simpleError(fd, 400, "bad chunk header"); goto done; }
            if (!c.more()) goto done;
          }
          std::string sz = c.buf.substr(0, e);
          size_t semi = sz.find(';');
          if (semi != std::string::npos) sz = sz.substr(0, semi);
          while (!sz.empty() && (sz.back() == ' ' || sz.back() == '\t')) sz.pop_back();
          if (sz.empty() || sz.size() > 8) { simpleError(fd, 400, "bad chunk size"); goto done; }
          size_t n = 0;
          for (char ch : sz) {
            int v = isdigit((unsigned char)ch) ? ch - '0' : (ch >= 'a' && ch <= 'f') ? ch - 'a' + 10 : (ch >= 'A' && ch <= 'F') ? ch - 'A' + 10 : -1;
            if (v < 0) { simpleError(fd, 400, "bad chunk size"); goto done; }
            n = n * 16 + (size_t)v;
          }
          c.buf.erase(0, e + 2);
          if (n == 0) {
            // trailers until empty line
            while (true) {
              size_t t;
              while ((t = c.buf.find("\r\n")) == std::string::npos) { if (c.buf.size() > 8192 || !c.more()) goto done; }
              bool last = t == 0;
              c.buf.erase(0, t + 2);
              if (last) break;
            }
            break;
          }
          if (rq.body.size() + n > kMaxBody) { tooLarge = true; break; }
          while (c.buf.size() < n + 2) if (!c.more()) goto done;
          if (c.buf.compare(n, 2, "\r\n") != 0) { simpleError(fd, 400, "bad chunk terminator"); goto done; }
          rq.body.append(c.buf, 0, n);
          c.buf.erase(0, n + 2);
        }
      } else if (!cl.empty()) {
        size_t n = 0;
        if (cl.size() > 15) { tooLarge = true; }
        else {
          for (char ch : cl) {
            if (!isdigit((unsigned char)ch)) { simpleError(fd, 400, "bad Content-Length"); goto done; }
            n = n * 10 + (size_t)(ch - '0');
          }
          if (n > kMaxBody) tooLarge = true;
        }
        if (!tooLarge) {
          if (!expect.empty() && c.buf.size() < n) sendStr(fd, "HTTP/1.1 100 Continue\r\n\r\n");
          while (c.buf.size() < n) if (!c.more()) goto done;
          rq.body = c.buf.substr(0, n);
          c.buf.erase(0, n);
        }
      }
      if (tooLarge) {
        std::string body = "{\n  \"error\": \"request body exceeds 6291456 bytes\",\n  \"kind\": \"PayloadTooLarge\"\n}";
        std::string h = "HTTP/1.1 413 Content Too Large\r\ncontent-Type: application/json; charset=\"utf-8\"\r\ncontent-Length: " +
                        std::to_string(body.size()) + "\r\nconnection: close\r\n\r\n" + body;
        sendStr(fd, h);
        fprintf(stderr, "%s %s -> 413 (body too large)\n", rq.method.c_str(), rq.target.c_str());
        shutdown(fd, SHUT_WR);
        // drain briefly so the client sees the answer
        timeval t2{1, 0};
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &t2, sizeof t2);
        char tmp[65536];
        for (int k = 0; k < 200 && recv(fd, tmp, sizeof tmp, 0) > 0; k++) {}
        goto done;
      }
      Response rs;
      handler(rq, rs);
      if (rs.closeAfter) keep = false;
      writeResponse(fd, rq, rs, keep);
      if (!keep) goto done;
    }
  }
done:
  close(fd);
  g_conns--;
}

void httpServe(int lfd, HttpHandler h) {
  while (true) {
    sockaddr_in a{};
    socklen_t l = sizeof a;
    int fd = accept(lfd, (sockaddr*)&a, &l);
    if (fd < 0) { if (errno == EINTR || errno == ECONNABORTED || errno == EMFILE || errno == ENFILE) { if (errno == EMFILE || errno == ENFILE) usleep(10000); continue; } continue; }
    if (g_conns.load() > 900) { simpleError(fd, 429, "too many connections"); close(fd); continue; }
    g_conns++;
    char ip[64];
    inet_ntop(AF_INET, &a.sin_addr, ip, sizeof ip);
    try {
      std::thread(handleConn, fd, std::string(ip), h).detach();
    } catch (...) {
      close(fd);
      g_conns--;
    }
  }
}
