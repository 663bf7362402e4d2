// tests/api/texel_buffer_offset_test.cpp: texel buffer views at single-texel offsets, the
// storage view read too (shaderStorageImageReadWithoutFormat).
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_image_load_formatted : require
#define LOAD_STORAGE
#include "texel_buffer/texel_buffer_offset.inc"
