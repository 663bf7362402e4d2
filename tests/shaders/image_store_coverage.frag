// Each fragment marks its pixel in an R32_UINT storage image and writes green: the marks must
// be exactly the pixels the colour write reaches, helper invocations storing nothing
// ("Helper Invocations": stores have no effect) (fragment_image_store_test.cpp).
#version 450
layout(set = 0, binding = 0, r32ui) uniform writeonly uimage2D marks;
layout(location = 0) out vec4 colour;
void main() {
  imageStore(marks, ivec2(gl_FragCoord.xy), uvec4(7u));
  colour = vec4(0.0, 1.0, 0.0, 1.0);
}
