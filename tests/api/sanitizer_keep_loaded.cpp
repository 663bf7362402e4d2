// Sanitizer builds only (tests/api/CMakeLists.txt): the Vulkan libraries that the loader
// dlopens for each instance and dlcloses at vkDestroyInstance are opened once more here with
// RTLD_NODELETE, so that they stay mapped until exit. Otherwise LeakSanitizer, which reports at
// exit, cannot name the code that made an allocation ("<unknown module>"): neither a leak in
// Tessera's ICD could be traced, nor known leaks of Mesa's lavapipe (the tests' second
// driver) be suppressed by name (tests/sanitizers/lsan.supp).
#include <dlfcn.h>

#include <initializer_list>

namespace {

__attribute__((constructor)) void keepVulkanLibrariesMapped() {
  for (const char* library : {TESSERA_ICD_LIBRARY, "libvulkan_lvp.so", "libVkLayer_khronos_validation.so"})
    dlopen(library, RTLD_LAZY | RTLD_LOCAL | RTLD_NODELETE);  // absent (no lavapipe): nothing to keep
}

}  // namespace
