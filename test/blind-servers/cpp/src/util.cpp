#include "util.hpp"
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <mutex>
#include <random>

static const int64_t kOffset = 5 * 3600 + 30 * 60;

int64_t nowSec() { return (int64_t)time(nullptr); }
int64_t nowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}
std::string fmtTime(int64_t t) {
  time_t x = (time_t)(t + kOffset);
  struct tm tm;
  gmtime_r(&x, &tm);
  char buf[48];
  strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S+05:30", &tm);
  return buf;
}
std::string fmtDate(int64_t t) {
  time_t x = (time_t)(t + kOffset);
  struct tm tm;
  gmtime_r(&x, &tm);
  char buf[24];
  strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
  return buf;
}
std::string fmtUtcCompact(int64_t t) {
  time_t x = (time_t)t;
  struct tm tm;
  gmtime_r(&x, &tm);
  char buf[24];
  strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
  return buf;
}
int64_t mkTime(int y, int mo, int d, int h, int mi, int s) {
  // days from civil (Howard Hinnant)
  y -= mo <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = (unsigned)(y - era * 400);
  const unsigned doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + (unsigned)d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  int64_t days = era * 146097 + (int64_t)doe - 719468;
  return days * 86400 + h * 3600 + mi * 60 + s;
}
static bool digits(const std::string& s, size_t p, size_t n, int& v) {
  if (p + n > s.size()) return false;
  v = 0;
  for (size_t k = 0; k < n; k++) {
    char c = s[p + k];
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  return true;
}
bool parseIsoTime(const std::string& s, int64_t& out, bool& dateOnly) {
  int y, mo, d, h = 0, mi = 0, sec = 0;
  if (!digits(s, 0, 4, y) || s.size() < 10 || s[4] != '-' || !digits(s, 5, 2, mo) || s[7] != '-' || !digits(s, 8, 2, d)) return false;
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return false;
  static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (d > mdays[mo - 1]) return false;
  if (mo == 2 && d == 29 && !((y % 4 == 0 && y % 100 != 0) || y % 400 == 0)) return false;
  if (s.size() == 10) { dateOnly = true; out = mkTime(y, mo, d); return true; }
  dateOnly = false;
  if (s[10] != 'T' && s[10] != 't' && s[10] != ' ') return false;
  if (!digits(s, 11, 2, h) || s.size() < 16 || s[13] != ':' || !digits(s, 14, 2, mi)) return false;
  size_t p = 16;
  if (p < s.size() && s[p] == ':') {
    if (!digits(s, 17, 2, sec)) return false;
    p = 19;
    if (p < s.size() && (s[p] == '.' || s[p] == ',')) {
      p++;
      size_t st = p;
      while (p < s.size() && s[p] >= '0' && s[p] <= '9') p++;
      if (p == st) return false;
    }
  }
  if (h > 23 || mi > 59 || sec > 60) return false;
  int64_t off = 0;
  if (p < s.size()) {
    if (s[p] == 'Z' || s[p] == 'z') { p++; }
    else if (s[p] == '+' || s[p] == '-') {
      int oh, om = 0;
      if (!digits(s, p + 1, 2, oh)) return false;
      size_t q = p + 3;
      if (q < s.size() && s[q] == ':') q++;
      if (q < s.size()) { if (!digits(s, q, 2, om)) return false; q += 2; }
      if (oh > 23 || om > 59) return false;
      off = (oh * 3600 + om * 60) * (s[p] == '-' ? -1 : 1);
      p = q;
    } else return false;
  }
  if (p != s.size()) return false;
  out = mkTime(y, mo, d, h, mi, sec) - off;
  return true;
}

static std::mutex g_rndMu;
static std::mt19937_64& rng() {
  static std::mt19937_64 g([] {
    std::random_device rd;
    return ((uint64_t)rd() << 32) ^ rd() ^ (uint64_t)nowMs();
  }());
  return g;
}
uint64_t rnd64() { std::lock_guard<std::mutex> l(g_rndMu); return rng()(); }
std::string randHex(size_t n) {
  static const char* h = "0123456789abcdef";
  std::string r;
  for (size_t k = 0; k < n; k++) r += h[rnd64() & 15];
  return r;
}
std::string randBase62(size_t n) {
  static const char* a = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  std::string r;
  for (size_t k = 0; k < n; k++) r += a[rnd64() % 62];
  return r;
}
std::string ulid() {
  static const char* a = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  uint64_t ms = (uint64_t)nowMs();
  std::string r(26, '0');
  for (int k = 9; k >= 0; k--) { r[k] = a[ms & 31]; ms >>= 5; }
  for (int k = 10; k < 26; k++) r[k] = a[rnd64() & 31];
  return r;
}

// ---- SHA-256
namespace {
const uint32_t K256[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be,
    0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa,
    0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85,
    0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
    0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
    0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
inline uint32_t ror(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }
inline uint64_t ror64(uint64_t x, int n) { return (x >> n) | (x << (64 - n)); }
const uint64_t K512[80] = {
    0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL, 0xe9b5dba58189dbbcULL, 0x3956c25bf348b538ULL, 0x59f111f1b605d019ULL,
    0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL, 0xd807aa98a3030242ULL, 0x12835b0145706fbeULL, 0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL,
    0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL, 0xc19bf174cf692694ULL, 0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL,
    0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL, 0x2de92c6f592b0275ULL, 0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL,
    0x983e5152ee66dfabULL, 0xa831c66d2db43210ULL, 0xb00327c898fb213fULL, 0xbf597fc7beef0ee4ULL, 0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL,
    0x06ca6351e003826fULL, 0x142929670a0e6e70ULL, 0x27b70a8546d22ffcULL, 0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL, 0x53380d139d95b3dfULL,
    0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL, 0x92722c851482353bULL, 0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL,
    0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL, 0xd192e819d6ef5218ULL, 0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL,
    0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL, 0x2748774cdf8eeb99ULL, 0x34b0bcb5e19b48a8ULL, 0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL,
    0x5b9cca4f7763e373ULL, 0x682e6ff3d6b2b8a3ULL, 0x748f82ee5defb2fcULL, 0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
    0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL, 0xc67178f2e372532bULL, 0xca273eceea26619cULL, 0xd186b8c721c0c207ULL,
    0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL, 0x06f067aa72176fbaULL, 0x0a637dc5a2c898a6ULL, 0x113f9804bef90daeULL, 0x1b710b35131c471bULL,
    0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL, 0x431d67c49c100d4cULL, 0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL,
    0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL};
}  // namespace

std::string sha256Raw(const std::string& data) {
  uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::string m = data;
  uint64_t bits = (uint64_t)data.size() * 8;
  m += (char)0x80;
  while (m.size() % 64 != 56) m += (char)0;
  for (int k = 7; k >= 0; k--) m += (char)((bits >> (k * 8)) & 0xff);
  for (size_t off = 0; off < m.size(); off += 64) {
    uint32_t w[64];
    for (int k = 0; k < 16; k++)
      w[k] = ((uint32_t)(unsigned char)m[off + 4 * k] << 24) | ((uint32_t)(unsigned char)m[off + 4 * k + 1] << 16) |
             ((uint32_t)(unsigned char)m[off + 4 * k + 2] << 8) | (uint32_t)(unsigned char)m[off + 4 * k + 3];
    for (int k = 16; k < 64; k++) {
      uint32_t s0 = ror(w[k - 15], 7) ^ ror(w[k - 15], 18) ^ (w[k - 15] >> 3);
      uint32_t s1 = ror(w[k - 2], 17) ^ ror(w[k - 2], 19) ^ (w[k - 2] >> 10);
      w[k] = w[k - 16] + s0 + w[k - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int k = 0; k < 64; k++) {
      uint32_t S1 = ror(e, 6) ^ ror(e, 11) ^ ror(e, 25);
      uint32_t ch = (e & f) ^ (~e & g);
      uint32_t t1 = hh + S1 + ch + K256[k] + w[k];
      uint32_t S0 = ror(a, 2) ^ ror(a, 13) ^ ror(a, 22);
      uint32_t mj = (a & b) ^ (a & c) ^ (b & c);
      uint32_t t2 = S0 + mj;
      hh = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
  }
  std::string out;
  for (int k = 0; k < 8; k++)
    for (int j = 3; j >= 0; j--) out += (char)((h[k] >> (j * 8)) & 0xff);
  return out;
}

static std::string sha384Raw(const std::string& data) {
  uint64_t h[8] = {0xcbbb9d5dc1059ed8ULL, 0x629a292a367cd507ULL, 0x9159015a3070dd17ULL, 0x152fecd8f70e5939ULL,
                   0x67332667ffc00b31ULL, 0x8eb44a8768581511ULL, 0xdb0c2e0d64f98fa7ULL, 0x47b5481dbefa4fa4ULL};
  std::string m = data;
  uint64_t bits = (uint64_t)data.size() * 8;
  m += (char)0x80;
  while (m.size() % 128 != 112) m += (char)0;
  for (int k = 0; k < 8; k++) m += (char)0;  // high 64 bits of length
  for (int k = 7; k >= 0; k--) m += (char)((bits >> (k * 8)) & 0xff);
  for (size_t off = 0; off < m.size(); off += 128) {
    uint64_t w[80];
    for (int k = 0; k < 16; k++) {
      uint64_t v = 0;
      for (int j = 0; j < 8; j++) v = (v << 8) | (unsigned char)m[off + 8 * k + j];
      w[k] = v;
    }
    for (int k = 16; k < 80; k++) {
      uint64_t s0 = ror64(w[k - 15], 1) ^ ror64(w[k - 15], 8) ^ (w[k - 15] >> 7);
      uint64_t s1 = ror64(w[k - 2], 19) ^ ror64(w[k - 2], 61) ^ (w[k - 2] >> 6);
      w[k] = w[k - 16] + s0 + w[k - 7] + s1;
    }
    uint64_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int k = 0; k < 80; k++) {
      uint64_t S1 = ror64(e, 14) ^ ror64(e, 18) ^ ror64(e, 41);
      uint64_t ch = (e & f) ^ (~e & g);
      uint64_t t1 = hh + S1 + ch + K512[k] + w[k];
      uint64_t S0 = ror64(a, 28) ^ ror64(a, 34) ^ ror64(a, 39);
      uint64_t mj = (a & b) ^ (a & c) ^ (b & c);
      uint64_t t2 = S0 + mj;
      hh = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
  }
  std::string out;
  for (int k = 0; k < 6; k++)
    for (int j = 7; j >= 0; j--) out += (char)((h[k] >> (j * 8)) & 0xff);
  return out;
}

std::string sha256Hex(const std::string& data) {
  std::string r = sha256Raw(data), o;
  static const char* hx = "0123456789abcdef";
  for (unsigned char c : r) { o += hx[c >> 4]; o += hx[c & 15]; }
  return o;
}

std::string hmacSha384(const std::string& key, const std::string& msg) {
  std::string k = key;
  if (k.size() > 128) k = sha384Raw(k);
  k.resize(128, '\0');
  std::string ip(128, 0), op(128, 0);
  for (int n = 0; n < 128; n++) { ip[n] = (char)(k[n] ^ 0x36); op[n] = (char)(k[n] ^ 0x5c); }
  return sha384Raw(op + sha384Raw(ip + msg));
}

static const char* B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
std::string b64std(const std::string& raw) {
  std::string o;
  size_t n = 0;
  for (; n + 2 < raw.size(); n += 3) {
    uint32_t v = ((unsigned char)raw[n] << 16) | ((unsigned char)raw[n + 1] << 8) | (unsigned char)raw[n + 2];
    o += B64[v >> 18]; o += B64[(v >> 12) & 63]; o += B64[(v >> 6) & 63]; o += B64[v & 63];
  }
  if (raw.size() - n == 1) {
    uint32_t v = (unsigned char)raw[n] << 16;
    o += B64[v >> 18]; o += B64[(v >> 12) & 63]; o += "==";
  } else if (raw.size() - n == 2) {
    uint32_t v = ((unsigned char)raw[n] << 16) | ((unsigned char)raw[n + 1] << 8);
    o += B64[v >> 18]; o += B64[(v >> 12) & 63]; o += B64[(v >> 6) & 63]; o += '=';
  }
  return o;
}
std::string b64url(const std::string& raw) {
  std::string s = b64std(raw);
  while (!s.empty() && s.back() == '=') s.pop_back();
  for (auto& c : s) { if (c == '+') c = '-'; else if (c == '/') c = '_'; }
  return s;
}
static bool b64dec(const std::string& in, std::string& out, bool url) {
  out.clear();
  uint32_t acc = 0; int bits = 0; size_t pad = 0;
  for (char c : in) {
    int v;
    if (c >= 'A' && c <= 'Z') v = c - 'A';
    else if (c >= 'a' && c <= 'z') v = c - 'a' + 26;
    else if (c >= '0' && c <= '9') v = c - '0' + 52;
    else if (c == (url ? '-' : '+')) v = 62;
    else if (c == (url ? '_' : '/')) v = 63;
    else if (c == '=') { pad++; continue; }
    else if (c == '\n' || c == '\r') continue;
    else return false;
    if (pad) return false;
    acc = (acc << 6) | (uint32_t)v; bits += 6;
    if (bits >= 8) { bits -= 8; out += (char)((acc >> bits) & 0xff); }
  }
  return pad <= 2;
}
bool b64urlDecode(const std::string& in, std::string& out) { return b64dec(in, out, true); }
bool b64stdDecode(const std::string& in, std::string& out) { return b64dec(in, out, false); }

std::string lower(std::string s) { for (auto& c : s) c = (char)tolower((unsigned char)c); return s; }
std::string upper(std::string s) { for (auto& c : s) c = (char)toupper((unsigned char)c); return s; }
std::string trim(const std::string& s) {
  size_t a = 0, b = s.size();
  while (a < b && isspace((unsigned char)s[a])) a++;
  while (b > a && isspace((unsigned char)s[b - 1])) b--;
  return s.substr(a, b - a);
}
bool icontains(const std::string& hay, const std::string& needle) { return lower(hay).find(lower(needle)) != std::string::npos; }
bool iequals(const std::string& a, const std::string& b) { return lower(a) == lower(b); }
std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> r;
  size_t st = 0;
  while (true) {
    size_t p = s.find(sep, st);
    if (p == std::string::npos) { r.push_back(s.substr(st)); break; }
    r.push_back(s.substr(st, p - st));
    st = p + 1;
  }
  return r;
}
std::string toBase36(uint64_t v) {
  static const char* a = "0123456789abcdefghijklmnopqrstuvwxyz";
  if (!v) return "0";
  std::string r;
  while (v) { r.insert(r.begin(), a[v % 36]); v /= 36; }
  return r;
}
bool fromBase36(const std::string& s, uint64_t& v) {
  if (s.empty() || s.size() > 12) return false;
  v = 0;
  for (char c : s) {
    int d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (c >= 'a' && c <= 'z') d = c - 'a' + 10;
    else return false;
    v = v * 36 + (uint64_t)d;
  }
  return true;
}
bool parseI64(const std::string& s, int64_t& v) {
  if (s.empty() || s.size() > 19) return false;
  size_t p = 0;
  bool neg = false;
  if (s[0] == '-') { neg = true; p = 1; if (s.size() == 1) return false; }
  uint64_t r = 0;
  for (; p < s.size(); p++) {
    if (s[p] < '0' || s[p] > '9') return false;
    r = r * 10 + (uint64_t)(s[p] - '0');
    if (r > (uint64_t)INT64_MAX) return false;
  }
  v = neg ? -(int64_t)r : (int64_t)r;
  return true;
}
bool validUtf8(const std::string& s) {
  size_t p = 0;
  while (p < s.size()) {
    unsigned char c = (unsigned char)s[p];
    if (c < 0x80) { p++; continue; }
    int len; uint32_t cp;
    if ((c & 0xE0) == 0xC0) { len = 2; cp = c & 0x1F; }
    else if ((c & 0xF0) == 0xE0) { len = 3; cp = c & 0x0F; }
    else if ((c & 0xF8) == 0xF0) { len = 4; cp = c & 0x07; }
    else return false;
    if (p + (size_t)len > s.size()) return false;
    for (int k = 1; k < len; k++) {
      unsigned char cc = (unsigned char)s[p + k];
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3F);
    }
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    p += (size_t)len;
  }
  return true;
}
std::string csvField(const std::string& s) {
  std::string r = "\"";
  for (char c : s) { if (c == '"') r += "\"\""; else r += c; }
  return r + "\"";
}

// Cursor: "cx" + base36(index*97+41) + "-" + base36 checksum char
std::string makeCursor(size_t index) {
  uint64_t v = (uint64_t)index * 97 + 41;
  std::string body = toBase36(v);
  uint64_t sum = 7;
  for (char c : body) sum = (sum * 31 + (unsigned char)c) % 36;
  return "cx" + body + "-" + toBase36(sum);
}
bool readCursor(const std::string& c, size_t& index) {
  if (c.size() < 5 || c.compare(0, 2, "cx") != 0) return false;
  size_t dash = c.rfind('-');
  if (dash == std::string::npos || dash < 3) return false;
  std::string body = c.substr(2, dash - 2), chk = c.substr(dash + 1);
  uint64_t v;
  if (!fromBase36(body, v)) return false;
  uint64_t sum = 7;
  for (char ch : body) sum = (sum * 31 + (unsigned char)ch) % 36;
  if (toBase36(sum) != chk) return false;
  if (v < 41 || (v - 41) % 97 != 0) return false;
  index = (size_t)((v - 41) / 97);
  return true;
}
