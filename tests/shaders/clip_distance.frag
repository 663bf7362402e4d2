#version 450
// Clip and cull distances: the interpolated distances as the colour ("linearly interpolated
// across the primitive"), so that the fragment stage's reads of them are checked too.
in float gl_ClipDistance[2];
in float gl_CullDistance[1];
layout(location = 0) out vec4 color;
void main() {
  color = vec4(gl_ClipDistance[0] * 0.5, gl_ClipDistance[1] * 0.5, gl_CullDistance[0] * 0.5 + 0.5, 1.0);
}
