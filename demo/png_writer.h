// Writes an 8-bit RGBA image as a PNG file (libpng); false on any failure. Shared by the demos.
#pragma once

#include <cstdint>

bool writePng(const char* path, uint32_t w, uint32_t h, const uint8_t* rgba);
