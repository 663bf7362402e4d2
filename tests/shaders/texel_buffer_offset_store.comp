// tests/api/texel_buffer_offset_test.cpp: texel buffer views at single-texel offsets, the
// storage view only written (for drivers without shaderStorageImageReadWithoutFormat).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "texel_buffer/texel_buffer_offset.inc"
