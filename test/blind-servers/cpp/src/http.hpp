#pragma once
#include <functional>
#include <string>
#include <utility>
#include <vector>

struct Request {
  std::string method, target, rawPath, rawQuery, version;
  std::vector<std::string> segs;  // decoded path segments (leading "" removed)
  std::vector<std::pair<std::string, std::string>> query;
  std::vector<std::pair<std::string, std::string>> headers;  // lower-case names
  std::string body;
  std::string remote;
  bool badEncoding = false;  // invalid percent-encoding in path or query
  std::string header(const std::string& lname) const {
    for (auto& h : headers) if (h.first == lname) return h.second;
    return "";
  }
  bool hasHeader(const std::string& lname) const {
    for (auto& h : headers) if (h.first == lname) return true;
    return false;
  }
};

struct Response {
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers;  // names as sent
  std::string body;
  bool chunked = false;     // force chunked transfer
  bool noBody = false;      // 204/304 style
  bool closeAfter = false;
};

using HttpHandler = std::function<void(Request&, Response&)>;

// Binds 127.0.0.1:port (0 = any). Returns the bound port or -1.
int httpListen(int port, int& fdOut);
void httpServe(int fd, HttpHandler h);
bool percentDecode(const std::string& in, std::string& out, bool plusSpace);
const char* reasonPhrase(int status);
