// Pipeline statistics (tests/api/pipeline_statistics_test.cpp): a workgroup of 8x2x1
// invocations that does nothing but run.
#version 450
layout(local_size_x = 8, local_size_y = 2) in;
void main() {}
