// Default sanitizer runtime options, linked into every executable of a TESSERA_SANITIZE build
// (cmake/sanitizers.cmake): the runtimes ask for these before main, so `ctest` and a test
// binary run by hand behave alike without exported variables. ASAN_OPTIONS, UBSAN_OPTIONS,
// LSAN_OPTIONS and TSAN_OPTIONS in the environment still override them.
//
// The suppression files next to this one hold known noise from code Tessera does not build
// (the Vulkan loader, the validation layer, LLVM, Mesa); each entry says why.

#define TESSERA_SANITIZER_EXPORT extern "C" __attribute__((visibility("default"), used))

TESSERA_SANITIZER_EXPORT const char* __asan_default_options() {
  // allocator_may_return_null: the driver answers allocations that the application's numbers
  // sized (a buffer of maxBufferSize, a draw of billions of vertices) with
  // VK_ERROR_OUT_OF_*_MEMORY by catching std::bad_alloc; ASan would abort instead.
  // detect_stack_use_after_return stays off: fake stacks and Boost.Context fibers (whose
  // switches spirv_jit/sanitizer_fiber.h announces) are more than this run needs.
  // intercept_tls_get_addr=0: GCC 12's runtime (google/sanitizers#1322) takes a dynamic TLS
  // block whose address is 16 modulo 4096 for one with glibc 2.19's header and records the two
  // words before it, here ASan's chunk header, as the block's address and size; LeakSanitizer's
  // exit-time tracer then scans that range and dies ("Tracer caught signal 11" at addresses like
  // 0x21e0). The ICD's thread_local objects are such blocks in every thread that touches them,
  // so which test hits it is chance. Without the interception the blocks are still found: the
  // thread's dtv, reached from its static TLS, points at them.
  return "detect_leaks=1:allocator_may_return_null=1:detect_stack_use_after_return=0:"
         "check_initialization_order=1:strict_string_checks=1:handle_abort=1:intercept_tls_get_addr=0";
}

TESSERA_SANITIZER_EXPORT const char* __lsan_default_options() {
  return "suppressions=" TESSERA_SANITIZER_DIR "/lsan.supp:print_suppressions=0";
}

TESSERA_SANITIZER_EXPORT const char* __ubsan_default_options() {
  return "print_stacktrace=1:halt_on_error=1:suppressions=" TESSERA_SANITIZER_DIR "/ubsan.supp";
}

TESSERA_SANITIZER_EXPORT const char* __tsan_default_options() {
  return "halt_on_error=1:second_deadlock_stack=1:suppressions=" TESSERA_SANITIZER_DIR "/tsan.supp";
}
