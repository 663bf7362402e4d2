#include "tessera/log.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace tessera {
namespace {

int configuredLevel() {
  const char* env = std::getenv("TESSERA_LOG");
  if (!env || !*env) return -1;
  if (!std::strcmp(env, "error")) return 0;
  if (!std::strcmp(env, "warn")) return 1;
  if (!std::strcmp(env, "info")) return 2;
  return 3;  // "debug", "1" or anything else: everything
}

const char* levelName(LogLevel level) {
  switch (level) {
    case LogLevel::Error: return "error";
    case LogLevel::Warn: return "warn";
    case LogLevel::Info: return "info";
    case LogLevel::Debug: return "debug";
  }
  return "?";
}

}  // namespace

bool logEnabled(LogLevel level) {
  static const int configured = configuredLevel();
  return static_cast<int>(level) <= configured;
}

void logMessage(LogLevel level, const char* file, int line, const char* fmt, ...) {
  const char* base = std::strrchr(file, '/');
  std::fprintf(stderr, "tessera %s %s:%d: ", levelName(level), base ? base + 1 : file, line);
  va_list args;
  va_start(args, fmt);
  std::vfprintf(stderr, fmt, args);
  va_end(args);
  std::fputc('\n', stderr);
}

}  // namespace tessera
