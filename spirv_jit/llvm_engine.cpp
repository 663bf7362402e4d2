#include "llvm_engine.h"

#include "cancel_polls.h"
#include "vector_division.h"
#include "vector_math.h"
#include "whole_mask_stores.h"

#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Object/ObjectFile.h>
#include <llvm/Object/SymbolSize.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Host.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <optional>
#include <unordered_set>

#include "runtime.h"
#include "tessera/cpu_info.h"

namespace tessera::jit {
namespace {

void initializeLlvm() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
}

std::string errorText(llvm::Error e) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << e;
  return s;
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>> makeTargetMachine() {
  auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!jtmb) return jtmb.takeError();
  jtmb->setCodeGenOptLevel(llvm::CodeGenOptLevel::Default);
  // The small code model, position-independent: JITLink places an object's code and constants
  // in one allocation, so constant-pool operands are RIP-relative (`vmulps .LCPI(%rip)`) and
  // calls to host functions go through stubs JITLink makes. ORC's default for x86-64 is the
  // large model, where every constant-pool operand in a loop first needs a 10-byte movabsq of
  // its address: 14 extra instructions per iteration of alu_fs's loop.
  jtmb->setCodeModel(llvm::CodeModel::Small);
  jtmb->setRelocationModel(llvm::Reloc::PIC_);
  return jtmb->createTargetMachine();
}

// The functions generated code may call: runtime helpers, the C library's math, and what LLVM
// itself emits calls to (memcpy, memset, half conversions).

std::vector<HostSymbol> hostSymbols() {
  std::vector<HostSymbol> s = runtimeSymbols();
  auto add = [&](const char* n, void* a) { s.push_back({n, a}); };
  add("memcpy", reinterpret_cast<void*>(&memcpy));
  add("memset", reinterpret_cast<void*>(&memset));
  add("memmove", reinterpret_cast<void*>(&memmove));
#define TESSERA_MATH(name) \
  add(#name "f", reinterpret_cast<void*>(static_cast<float (*)(float)>(&::name##f))); \
  add(#name, reinterpret_cast<void*>(static_cast<double (*)(double)>(&::name)));
  TESSERA_MATH(sin) TESSERA_MATH(cos) TESSERA_MATH(tan) TESSERA_MATH(asin) TESSERA_MATH(acos) TESSERA_MATH(atan)
  TESSERA_MATH(sinh) TESSERA_MATH(cosh) TESSERA_MATH(tanh) TESSERA_MATH(asinh) TESSERA_MATH(acosh) TESSERA_MATH(atanh)
  TESSERA_MATH(exp) TESSERA_MATH(exp2) TESSERA_MATH(log) TESSERA_MATH(log2) TESSERA_MATH(log10) TESSERA_MATH(sqrt)
  TESSERA_MATH(floor) TESSERA_MATH(ceil) TESSERA_MATH(trunc) TESSERA_MATH(round) TESSERA_MATH(roundeven)
  TESSERA_MATH(rint) TESSERA_MATH(nearbyint) TESSERA_MATH(fabs)
#undef TESSERA_MATH
  add("atan2f", reinterpret_cast<void*>(static_cast<float (*)(float, float)>(&::atan2f)));
  add("atan2", reinterpret_cast<void*>(static_cast<double (*)(double, double)>(&::atan2)));
  add("powf", reinterpret_cast<void*>(static_cast<float (*)(float, float)>(&::powf)));
  add("pow", reinterpret_cast<void*>(static_cast<double (*)(double, double)>(&::pow)));
  add("fmodf", reinterpret_cast<void*>(static_cast<float (*)(float, float)>(&::fmodf)));
  add("fmod", reinterpret_cast<void*>(static_cast<double (*)(double, double)>(&::fmod)));
  add("fminf", reinterpret_cast<void*>(static_cast<float (*)(float, float)>(&::fminf)));
  add("fmaxf", reinterpret_cast<void*>(static_cast<float (*)(float, float)>(&::fmaxf)));
  add("fmin", reinterpret_cast<void*>(static_cast<double (*)(double, double)>(&::fmin)));
  add("fmax", reinterpret_cast<void*>(static_cast<double (*)(double, double)>(&::fmax)));
  add("fmaf", reinterpret_cast<void*>(static_cast<float (*)(float, float, float)>(&::fmaf)));
  add("fma", reinterpret_cast<void*>(static_cast<double (*)(double, double, double)>(&::fma)));
  add("ldexpf", reinterpret_cast<void*>(static_cast<float (*)(float, int)>(&::ldexpf)));
  add("ldexp", reinterpret_cast<void*>(static_cast<double (*)(double, int)>(&::ldexp)));
  add("frexpf", reinterpret_cast<void*>(static_cast<float (*)(float, int*)>(&::frexpf)));
  add("frexp", reinterpret_cast<void*>(static_cast<double (*)(double, int*)>(&::frexp)));
  // libmvec's names must outlive the table: HostSymbol keeps a pointer to the name.
  static const std::vector<std::pair<std::string, void*>> vectorMath = vectorMathSymbols();
  for (const auto& [name, address] : vectorMath) add(name.c_str(), address);
  return s;
}

class Jit {
 public:
  // Never destroyed: code may still be referenced by caches while the process exits, and an
  // LLJIT torn down under them would deadlock; the OS reclaims everything at exit.
  static Jit& instance() {
    static Jit* jit = new Jit;
    return *jit;
  }
  llvm::orc::LLJIT* get(std::string* error) {
    if (!jit_) *error = error_;
    return jit_.get();
  }

 private:
  Jit() {
    initializeLlvm();
    auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!jtmb) {
      error_ = errorText(jtmb.takeError());
      return;
    }
    auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*jtmb)).create();
    if (!jit) {
      error_ = errorText(jit.takeError());
      return;
    }
    jit_ = std::move(*jit);
    llvm::orc::SymbolMap symbols;
    for (const HostSymbol& s : hostSymbols())
      symbols[jit_->mangleAndIntern(s.name)] = {llvm::orc::ExecutorAddr::fromPtr(s.address),
                                                llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Absolute};
    if (auto e = jit_->getMainJITDylib().define(llvm::orc::absoluteSymbols(std::move(symbols)))) {
      error_ = errorText(std::move(e));
      jit_.reset();
      return;
    }
    // Anything else generated code needs (compiler-rt/libgcc helpers) from the process.
    auto gen = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(jit_->getDataLayout().getGlobalPrefix());
    if (gen) jit_->getMainJITDylib().addGenerator(std::move(*gen));
  }
  std::unique_ptr<llvm::orc::LLJIT> jit_;
  std::string error_;
};

// Kernel code lives in a few JITDylibs linked against the one holding runtime symbols. A
// symbol may be defined once per JITDylib, and the same object can be loaded twice (a
// cache-less compile next to a cached one, or a reload racing the unload of an earlier copy),
// so each load goes to the first JITDylib not defining its symbol; a ResourceTracker per load
// frees exactly that code. Creating a JITDylib is the costly part of a load, so they are kept.
class KernelDylibs {
 public:
  static KernelDylibs& instance() {
    static KernelDylibs* k = new KernelDylibs;  // lives as long as the JIT (never destroyed)
    return *k;
  }
  std::mutex mutex;
  struct Slot {
    llvm::orc::JITDylib* dylib;
    std::unordered_set<std::string> defined;
  };
  std::vector<Slot> slots;
};

class OrcLoadedCode final : public LoadedCode {
 public:
  OrcLoadedCode(llvm::orc::ResourceTrackerSP tracker, size_t slot, void* entry, std::string name)
      : tracker_(std::move(tracker)), slot_(slot), entry_(entry), name_(std::move(name)) {}
  ~OrcLoadedCode() override {
    KernelDylibs& k = KernelDylibs::instance();
    std::lock_guard lock(k.mutex);
    llvm::consumeError(tracker_->remove());
    k.slots[slot_].defined.erase(name_);
  }
  void* symbol(const std::string& name) const override { return name == name_ ? entry_ : nullptr; }

 private:
  llvm::orc::ResourceTrackerSP tracker_;
  size_t slot_;
  void* entry_;
  std::string name_;
};

void writePerfMap(const std::vector<char>& object, void* entry, const std::string& name) {
  // perf's JIT map: "START SIZE symbolname" per line in /tmp/perf-<pid>.map. Every function of
  // the object's section is listed at its offset from the kernel's symbol (a coroutine kernel's
  // resume and destroy clones are functions of their own).
  static std::mutex mutex;
  struct Entry {
    int64_t offset;
    uint64_t size;
    std::string name;
  };
  std::vector<Entry> entries;
  auto buffer = llvm::MemoryBuffer::getMemBuffer(llvm::StringRef(object.data(), object.size()), "", false);
  if (auto obj = llvm::object::ObjectFile::createObjectFile(buffer->getMemBufferRef())) {
    std::optional<uint64_t> kernelAddress;
    std::optional<llvm::object::section_iterator> kernelSection;
    auto sized = llvm::object::computeSymbolSizes(**obj);
    for (auto& [sym, symSize] : sized) {
      auto n = sym.getName();
      auto a = sym.getAddress();
      auto sec = sym.getSection();
      if (n && a && sec && *n == name) kernelAddress = *a, kernelSection = *sec;
      else {
        if (!n) llvm::consumeError(n.takeError());
        if (!a) llvm::consumeError(a.takeError());
        if (!sec) llvm::consumeError(sec.takeError());
      }
    }
    for (auto& [sym, symSize] : sized) {
      auto type = sym.getType();
      auto n = sym.getName();
      auto a = sym.getAddress();
      auto sec = sym.getSection();
      const bool function = type && *type == llvm::object::SymbolRef::ST_Function;
      if (!type) llvm::consumeError(type.takeError());
      if (function && n && a && sec && kernelAddress && *sec == *kernelSection)
        entries.push_back({int64_t(*a - *kernelAddress), symSize, n->str()});
      else {
        if (!n) llvm::consumeError(n.takeError());
        if (!a) llvm::consumeError(a.takeError());
        if (!sec) llvm::consumeError(sec.takeError());
      }
    }
  } else {
    llvm::consumeError(obj.takeError());
  }
  if (entries.empty()) entries.push_back({0, 1, name});
  std::lock_guard lock(mutex);
  char path[64];
  std::snprintf(path, sizeof(path), "/tmp/perf-%d.map", int(getpid()));
  if (FILE* f = std::fopen(path, "a")) {
    for (const Entry& e : entries)
      std::fprintf(f, "%lx %lx %s\n", static_cast<unsigned long>(reinterpret_cast<uintptr_t>(entry) + uint64_t(e.offset)),
                   static_cast<unsigned long>(e.size ? e.size : 1), e.name.c_str());
    std::fclose(f);
  }
}

// TESSERA_LLVM_OPT=O1|O2|O3 (default O2, see docs/ARCHITECTURE.md for the measurement).
llvm::OptimizationLevel optimizationLevel() {
  static const llvm::OptimizationLevel level = [] {
    const char* v = std::getenv("TESSERA_LLVM_OPT");
    std::string s = v ? v : "";
    if (s == "O1") return llvm::OptimizationLevel::O1;
    if (s == "O3") return llvm::OptimizationLevel::O3;
    return llvm::OptimizationLevel::O2;
  }();
  return level;
}

}  // namespace

const std::string& dumpDirectory() {
  static const std::string dir = [] {
    const char* d = std::getenv("TESSERA_DUMP_DIR");
    return std::string(d ? d : "");
  }();
  return dir;
}

const std::string& hostTargetDescription() {
  static const std::string description = [] {
    initializeLlvm();
    std::string s = llvm::sys::getHostCPUName().str();
    for (auto& [feature, enabled] : llvm::sys::getHostCPUFeatures())
      if (enabled) s += "," + feature.str();
    return s;
  }();
  return description;
}

void optimizeModule(llvm::Module& module, llvm::TargetMachine* tm) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(tm);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  registerCancelPollPass(pb);
  llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(optimizationLevel());
  mpm.run(module, mam);
}

bool emitObject(llvm::Module& module, const EngineOptions& options, std::vector<char>* object, std::string* error,
                const std::string& dumpPrefix) {
  initializeLlvm();
  // One target machine per compiling thread, reused: building one for the host CPU (every
  // feature of the subtarget) costs about a millisecond.
  thread_local std::unique_ptr<llvm::TargetMachine> threadTm;
  if (!threadTm) {
    auto made = makeTargetMachine();
    if (!made) {
      *error = errorText(made.takeError());
      return false;
    }
    threadTm = std::move(*made);
  }
  llvm::TargetMachine* tm = threadTm.get();
  module.setDataLayout(tm->createDataLayout());
  module.setTargetTriple(tm->getTargetTriple().str());
  // Let the backend keep W-lane vectors whole (512-bit registers when W = 16). Calls into
  // libmvec (vector_math.h) pass its widest vectors whole too: the vector function ABI takes a
  // 16-lane argument in one ZMM register, which a caller whose legal width is narrower would
  // split over two YMM registers.
  uint32_t legalBits = options.simdWidth * 32;
  for (const llvm::Function& f : module)
    if (f.isDeclaration() && f.getName().starts_with("_ZGV"))
      if (auto* type = llvm::dyn_cast<llvm::FixedVectorType>(f.getReturnType()))
        legalBits = std::max(legalBits, uint32_t(type->getPrimitiveSizeInBits().getFixedValue()));
  const std::string bits = std::to_string(options.simdWidth * 32), legal = std::to_string(legalBits);
  for (llvm::Function& f : module) {
    if (f.isDeclaration()) continue;
    f.addFnAttr("prefer-vector-width", bits);
    f.addFnAttr("min-legal-vector-width", legal);
    f.addFnAttr(llvm::Attribute::NoUnwind);
  }
  {
    std::string verify;
    llvm::raw_string_ostream os(verify);
    if (llvm::verifyModule(module, &os)) {
      *error = "internal error: generated LLVM IR is invalid: " + verify.substr(0, 400);
      if (!dumpPrefix.empty()) {
        std::error_code ec;
        llvm::raw_fd_ostream out(dumpPrefix + ".invalid.ll", ec);
        if (!ec) module.print(out, nullptr);
      }
      return false;
    }
  }
  if (!dumpPrefix.empty()) {
    std::error_code ec;
    llvm::raw_fd_ostream out(dumpPrefix + ".ll", ec);
    if (!ec) module.print(out, nullptr);
  }

  optimizeModule(module, tm);
  divideVectorsInDouble(module);
  if (!hostCpu().avx512) {
    storeWholeMasksPlainly(module);
    loadWholeMasksPlainly(module);
  }

  if (!dumpPrefix.empty()) {
    std::error_code ec;
    llvm::raw_fd_ostream out(dumpPrefix + ".opt.ll", ec);
    if (!ec) module.print(out, nullptr);
    llvm::raw_fd_ostream asmOut(dumpPrefix + ".s", ec);
    auto asmTm = makeTargetMachine();
    if (!ec && asmTm) {
      // Code generation changes the IR it runs on: print the assembly of a copy.
      std::unique_ptr<llvm::Module> clone = llvm::CloneModule(module);
      llvm::legacy::PassManager pm;
      if (!(*asmTm)->addPassesToEmitFile(pm, asmOut, nullptr, llvm::CodeGenFileType::AssemblyFile)) pm.run(*clone);
    } else if (!asmTm) {
      llvm::consumeError(asmTm.takeError());
    }
  }

  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream os(buffer);
  llvm::legacy::PassManager pm;
  if (tm->addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::ObjectFile)) {
    *error = "internal error: the target cannot emit object files";
    return false;
  }
  pm.run(module);
  object->assign(buffer.begin(), buffer.end());
  return true;
}

std::unique_ptr<LoadedCode> loadObject(const std::vector<char>& object, const std::string& symbolName,
                                       std::string* error) {
  llvm::orc::LLJIT* jit = Jit::instance().get(error);
  if (!jit) return nullptr;
  KernelDylibs& k = KernelDylibs::instance();
  std::lock_guard lock(k.mutex);
  size_t slot = 0;
  while (slot < k.slots.size() && k.slots[slot].defined.count(symbolName)) ++slot;
  if (slot == k.slots.size()) {
    auto dylib = jit->createJITDylib("tessera.kernels." + std::to_string(slot));
    if (!dylib) {
      *error = errorText(dylib.takeError());
      return nullptr;
    }
    dylib->addToLinkOrder(jit->getMainJITDylib());
    k.slots.push_back({&*dylib, {}});
  }
  llvm::orc::JITDylib& jd = *k.slots[slot].dylib;
  auto tracker = jd.createResourceTracker();
  auto buffer = llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(object.data(), object.size()), symbolName);
  if (auto e = jit->addObjectFile(tracker, std::move(buffer))) {
    *error = errorText(std::move(e));
    llvm::consumeError(tracker->remove());
    return nullptr;
  }
  auto addr = jit->lookup(jd, symbolName);  // links the object
  if (!addr) {
    *error = errorText(addr.takeError());
    llvm::consumeError(tracker->remove());
    return nullptr;
  }
  k.slots[slot].defined.insert(symbolName);
  void* entry = addr->toPtr<void*>();
  static const bool perfMap = [] {
    const char* v = std::getenv("TESSERA_PERF_MAP");
    return v && *v && *v != '0';
  }();
  if (perfMap) writePerfMap(object, entry, symbolName);
  return std::make_unique<OrcLoadedCode>(std::move(tracker), slot, entry, symbolName);
}

}  // namespace tessera::jit
