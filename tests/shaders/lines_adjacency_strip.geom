#version 450
// Each lines-with-adjacency input primitive's four vertices out as one line strip (three
// segments), colours passed on (tests/api/line_rasterization_test.cpp: "Line Stipple" runs on
// along a geometry stage's strips as along a strip topology's).
layout(lines_adjacency) in;
layout(line_strip, max_vertices = 4) out;
layout(location = 0) in vec4 inColor[];
layout(location = 0) out vec4 color;
void main() {
  for (int i = 0; i < 4; ++i) {
    gl_Position = gl_in[i].gl_Position;
    color = inColor[i];
    EmitVertex();
  }
}
