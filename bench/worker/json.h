// A minimal JSON object writer for the worker's one-line reports.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace bench {

inline std::string jsonString(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += char(c);
        }
    }
  }
  return out + "\"";
}

inline std::string jsonNumber(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

// Builds {"key": value, ...}; values are given already encoded or through the typed adders.
class JsonObject {
 public:
  JsonObject& raw(const std::string& key, const std::string& encoded) {
    body_ += (body_.empty() ? "" : ", ") + jsonString(key) + ": " + encoded;
    return *this;
  }
  JsonObject& str(const std::string& key, const std::string& v) { return raw(key, jsonString(v)); }
  JsonObject& num(const std::string& key, double v) { return raw(key, jsonNumber(v)); }
  JsonObject& integer(const std::string& key, int64_t v) { return raw(key, std::to_string(v)); }
  JsonObject& boolean(const std::string& key, bool v) { return raw(key, v ? "true" : "false"); }
  JsonObject& numbers(const std::string& key, const std::vector<double>& v) {
    std::string a = "[";
    for (size_t i = 0; i < v.size(); ++i) a += (i ? ", " : "") + jsonNumber(v[i]);
    return raw(key, a + "]");
  }
  JsonObject& strings(const std::string& key, const std::vector<std::string>& v) {
    std::string a = "[";
    for (size_t i = 0; i < v.size(); ++i) a += (i ? ", " : "") + jsonString(v[i]);
    return raw(key, a + "]");
  }
  JsonObject& object(const std::string& key, const JsonObject& o) { return raw(key, o.str()); }
  std::string str() const { return "{" + body_ + "}"; }

 private:
  std::string body_;
};

}  // namespace bench
