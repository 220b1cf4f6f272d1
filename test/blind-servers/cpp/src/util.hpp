#pragma once
#include <cstdint>
#include <string>
#include <vector>

// ---- time: epoch seconds; rendered at offset +05:30 with second precision
int64_t nowSec();
int64_t nowMs();
std::string fmtTime(int64_t epochSec);   // 2025-01-02T08:34:05+05:30
std::string fmtDate(int64_t epochSec);   // 2025-01-02 (in the +05:30 zone)
std::string fmtUtcCompact(int64_t epochSec);  // 20250102T030405Z
// Parse ISO 8601 date or date-time (Z / ±hh:mm / none = UTC). dateOnly set when no time part.
bool parseIsoTime(const std::string& s, int64_t& out, bool& dateOnly);
int64_t mkTime(int y, int mo, int d, int h = 0, int mi = 0, int s = 0);  // UTC

// ---- randomness and ids
uint64_t rnd64();
std::string randHex(size_t n);
std::string randBase62(size_t n);
std::string ulid();

// ---- hashing
std::string sha256Hex(const std::string& data);
std::string sha256Raw(const std::string& data);
std::string hmacSha384(const std::string& key, const std::string& msg);
std::string b64url(const std::string& raw);
bool b64urlDecode(const std::string& in, std::string& out);
std::string b64std(const std::string& raw);
bool b64stdDecode(const std::string& in, std::string& out);

// ---- strings
std::string lower(std::string s);
std::string upper(std::string s);
std::string trim(const std::string& s);
bool icontains(const std::string& hay, const std::string& needle);
bool iequals(const std::string& a, const std::string& b);
std::vector<std::string> split(const std::string& s, char sep);
std::string toBase36(uint64_t v);
bool fromBase36(const std::string& s, uint64_t& v);
bool parseI64(const std::string& s, int64_t& v);  // strict decimal, optional leading '-'
bool validUtf8(const std::string& s);
std::string csvField(const std::string& s);  // always quoted

// ---- cursors (opaque, checksummed)
std::string makeCursor(size_t index);
bool readCursor(const std::string& c, size_t& index);
