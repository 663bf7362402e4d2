// Diagnostics for developers. Silent unless TESSERA_LOG is set (to "error", "warn", "info"
// or "debug"); then messages go to stderr. Never stdout: the host program owns it.
#pragma once

#include <cstdarg>

namespace tessera {

enum class LogLevel { Error = 0, Warn = 1, Info = 2, Debug = 3 };

bool logEnabled(LogLevel level);
void logMessage(LogLevel level, const char* file, int line, const char* fmt, ...)
    __attribute__((format(printf, 4, 5)));

}  // namespace tessera

#define TESSERA_LOG(level, ...)                                              \
  do {                                                                       \
    if (::tessera::logEnabled(::tessera::LogLevel::level))                   \
      ::tessera::logMessage(::tessera::LogLevel::level, __FILE__, __LINE__, __VA_ARGS__); \
  } while (0)
