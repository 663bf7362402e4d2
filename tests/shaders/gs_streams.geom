#version 450
// Vertex streams (GeometryStreams): one point in, ten points out over streams 0..3 with
// EndStreamPrimitive between them, then an eleventh past OutputVertices (dropped: the bound is
// on all streams together). Each vertex carries its emission number k in location 0 (stream
// 0's output) and 100 + k in location 1 (stream 1's): a record holds every output whatever
// its stream. tests/unit/spirv_jit/geometry_stage_test.cpp checks each record's stream and
// strip-start flag: a stream's strip starts at its first vertex and after its own
// EndStreamPrimitive, never after another stream's.
layout(points) in;
layout(points, max_vertices = 10) out;
layout(location = 0, stream = 0) flat out uint value0;
layout(location = 1, stream = 1) flat out uint value1;
void emit(uint k) {
  value0 = k;
  value1 = 100u + k;
}
void main() {
  emit(0u); EmitStreamVertex(0);
  emit(1u); EmitStreamVertex(1);
  emit(2u); EmitStreamVertex(1);
  emit(3u); EmitStreamVertex(0);
  EndStreamPrimitive(1);
  emit(4u); EmitStreamVertex(1);
  emit(5u); EmitStreamVertex(2);
  emit(6u); EmitStreamVertex(3);
  emit(7u); EmitStreamVertex(0);
  EndStreamPrimitive(0);
  emit(8u); EmitStreamVertex(0);
  emit(9u); EmitStreamVertex(3);
  emit(10u); EmitStreamVertex(2);
}
