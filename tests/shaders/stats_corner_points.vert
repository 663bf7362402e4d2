#version 450
// Pipeline statistics (tests/api/pipeline_statistics_test.cpp): four points, two exactly on
// the corners of the clip volume (x, y = +-w: inside it, their squares on the viewport's
// edge), one at the centre and one outside (x = 2w, clipped away).
const vec2 kPositions[4] = vec2[4](vec2(1.0, 1.0), vec2(-1.0, -1.0), vec2(0.0, 0.0), vec2(2.0, 0.0));
void main() {
  gl_Position = vec4(kPositions[gl_VertexIndex], 0.5, 1.0);
  gl_PointSize = 1.0;
}
