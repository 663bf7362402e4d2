#!/usr/bin/env python3
"""Generate the ICD's entry-point bookkeeping from vk.xml.

Outputs (in the build tree):
  entrypoints.h    weak declarations `tessera_vkFoo(...)` of every command of core 1.0-1.3 and
                   of the supported extensions. An implementation file defines the ones it
                   implements; the rest stay NULL, so GetProcAddr returns NULL for them.
  entrypoints.cpp  the name -> function table (promoted aliases included, each pointing at the
                   core implementation) with each command's level and what provides it.
  extensions.h/.cpp  the supported extensions (icd/supported_extensions.txt) with their spec
                   versions from the registry, an index per extension, the commands each
                   provides and the features the spec requires of it (checked at run time).
  feature_set.h/.cpp  FeatureSet (one bool per feature name), and the code that fills every
                   feature struct of a VkPhysicalDeviceFeatures2 chain and that reads the
                   features requested in a VkDeviceCreateInfo chain.
"""
import argparse
import os
import sys

from vkxml import CORE_VERSIONS, Registry


def read_supported(path, reg):
    """The listed extensions in order, and {extension: [[feature, ...alternatives], ...]}.

    Line forms (see icd/supported_extensions.txt):
      VK_FOO                    list VK_FOO
      VK_FOO: a b|c             list VK_FOO; advertise it only when feature a and (b or c) are
                                supported (the spec's "Feature Requirements")
      @promoted                 list every extension vk.xml marks promotedto VK_VERSION_1_1..1_3
    """
    names, gates = [], {}

    def add(name):
        if name not in reg.extensions:
            raise SystemExit(f"unknown extension {name}")
        if name not in names:
            names.append(name)

    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            if line == "@promoted":
                for name in promoted_extensions(reg):
                    add(name)
                continue
            name, _, features = line.partition(":")
            name = name.strip()
            add(name)
            if features.strip():
                gates[name] = [alt.split("|") for alt in features.split()]
    return names, gates


def promoted_extensions(reg):
    """Extensions whose functionality became part of core 1.1-1.3, in registry order."""
    return [name for name, ext in reg.extensions.items()
            if ext.get("promotedto") in CORE_VERSIONS[1:] and "vulkan" in ext.get("supported", "").split(",")]


def block_holds(req, supported_exts):
    """A <require> block that needs another extension or a newer core version is only
    provided when that holds; Tessera implements all of 1.3, so core dependencies always hold."""
    dep = req.get("extension") or req.get("depends") or req.get("feature")
    if not dep:
        return True
    return all(d in supported_exts or d in CORE_VERSIONS
               for d in dep.replace("+", ",").replace("(", "").replace(")", "").split(","))


def extension_commands(reg, ext_name, supported_exts):
    cmds = []
    for req in reg.require_blocks(reg.extensions[ext_name]):
        if block_holds(req, supported_exts):
            cmds += [c.get("name") for c in req.findall("command") if c.get("name") not in cmds]
    return cmds


def extension_spec_version(ext):
    for req in ext.findall("require"):
        for e in req.findall("enum"):
            if e.get("name", "").endswith("_SPEC_VERSION"):
                return int(e.get("value"))
    raise RuntimeError(f"no spec version for {ext.get('name')}")


def provided_commands(reg, supported_exts):
    """command name -> list of providers ('VK_VERSION_1_x' or extension name)."""
    providers = {}
    for feature in reg.features():
        for req in reg.require_blocks(feature):
            for c in req.findall("command"):
                providers.setdefault(c.get("name"), []).append(feature.get("name"))
    for ext_name in supported_exts:
        for c in extension_commands(reg, ext_name, supported_exts):
            providers.setdefault(c, []).append(ext_name)
    return providers


def provided_types(reg, supported_exts):
    types = set()
    for feature in reg.features():
        for req in reg.require_blocks(feature):
            types.update(t.get("name") for t in req.findall("type"))
    for ext_name in supported_exts:
        for req in reg.require_blocks(reg.extensions[ext_name]):
            types.update(t.get("name") for t in req.findall("type"))
    return types


def command_protects(reg, providers):
    """command -> the VK_USE_PLATFORM_* macro that declares its types, for commands that only
    window-system platform extensions provide (vkCreateXlibSurfaceKHR: VK_USE_PLATFORM_XLIB_KHR)."""
    protects = {p.get("name"): p.get("protect") for p in reg.root.find("platforms")}
    out = {}
    for name, provs in providers.items():
        macros = {protects.get(reg.extensions[p].get("platform")) if p in reg.extensions else None
                  for p in provs}
        if len(macros) == 1 and None not in macros:
            out[name] = macros.pop()
    return out


def guarded(lines_by_protect):
    """[(protect or None, line)] -> lines, each platform's run inside #ifdef protect."""
    out, current = [], None
    for protect, line in lines_by_protect:
        if protect != current:
            if current:
                out.append(f"#endif  // {current}")
            if protect:
                out.append(f"#ifdef {protect}")
            current = protect
        out.append(line)
    if current:
        out.append(f"#endif  // {current}")
    return out


def gen_entrypoints(reg, providers, ext_index, supported, out_dir):
    impl = {}  # exported name -> implementation symbol
    for name in providers:
        impl[name] = "tessera_" + reg.resolve_command(name)
    canonical = sorted({reg.resolve_command(n) for n in providers})
    protect = command_protects(reg, providers)

    # A platform's commands take that window system's types (Display*, wl_display*), which
    # vulkan.h declares, with the system's headers, only where the platform's VK_USE_PLATFORM_*
    # macro is defined. Like the Vulkan headers, entrypoints.h declares them only there: in the
    # file that implements the platform (icd/wsi_<platform>.cpp defines it first) and in the
    # table below, so Xlib's macros (None, Bool, Status, ...) stay out of the rest of the driver.
    h = ["// Generated by tools/gen_entrypoints.py from vk.xml. Do not edit.",
         "#pragma once", "#include <vulkan/vulkan_core.h>",
         "// Each defined VK_USE_PLATFORM_* brings its system header and Vulkan types.",
         "#include <vulkan/vulkan.h>", "",
         "// Structures and enums of the registry supplement that the headers lack.",
         "#include \"supplement.h\"", "",
         "// Weak: an entry point nobody implements resolves to NULL, and GetProcAddr says so.",
         "extern \"C\" {"]
    decls = []
    for name in canonical:
        ret, proto = reg.command_prototype(name, "tessera_" + name)
        decls.append((protect.get(name), f"VKAPI_ATTR {ret} VKAPI_CALL {proto} __attribute__((weak));"))
    h += guarded(decls)
    h += ["}", ""]
    with open(os.path.join(out_dir, "entrypoints.h"), "w") as f:
        f.write("\n".join(h))

    levels = {"global": "Global", "instance": "Instance",
              "physical_device": "PhysicalDevice", "device": "Device"}
    # The table names every command, so it sees every listed platform (defined before any include).
    platforms = sorted(set(protect.values()))
    c = ["// Generated by tools/gen_entrypoints.py from vk.xml. Do not edit."]
    c += [f"#define {p}" for p in platforms]
    c += ["#include \"entrypoint_table.h\"", "#include \"entrypoints.h\"", "",
         "namespace tessera {", "namespace {",
         "const EntryPoint kEntryPoints[] = {"]
    for name in sorted(providers):
        provs = providers[name]
        core = [p for p in provs if p in CORE_VERSIONS]
        core_minor = CORE_VERSIONS.index(core[0]) if core else -1
        exts = [ext_index[p] for p in provs if p in ext_index]
        if len(exts) > 2:
            raise SystemExit(f"{name}: more than two providing extensions; widen EntryPoint")
        ext_a = exts[0] if exts else -1
        ext_b = exts[1] if len(exts) > 1 else -1
        c.append(f"  {{\"{name}\", reinterpret_cast<PFN_vkVoidFunction>({impl[name]}), "
                 f"EntryPointLevel::{levels[reg.command_level(name)]}, {core_minor}, {ext_a}, {ext_b}}},")
    c += ["};", "}  // namespace", "",
          "std::span<const EntryPoint> entryPoints() { return kEntryPoints; }", "",
          "}  // namespace tessera", ""]
    with open(os.path.join(out_dir, "entrypoints.cpp"), "w") as f:
        f.write("\n".join(c))


def gen_extensions(reg, supported, gates, feature_names, out_dir):
    supported_set = set(supported)
    rows = []
    for name in supported:
        ext = reg.extensions[name]
        for alternatives in gates.get(name, []):
            for feature in alternatives:
                if feature not in feature_names:
                    raise SystemExit(f"{name}: unknown feature {feature}")
        if name in gates and ext.get("type") != "device":
            raise SystemExit(f"{name}: only device extensions have feature requirements")
        rows.append((name, ext.get("type"), extension_spec_version(ext),
                     extension_commands(reg, name, supported_set)))
    h = ["// Generated by tools/gen_entrypoints.py from vk.xml. Do not edit.",
         "#pragma once", "#include <cstddef>", "#include <cstdint>", "#include <span>",
         "#include <vulkan/vulkan_core.h>", "", "#include \"feature_set.h\"", "",
         "namespace tessera {", "",
         "enum class ExtensionId : int {"]
    for i, (name, _, _, _) in enumerate(rows):
        h.append(f"  {name[3:]} = {i},")
    h += [f"  Count = {len(rows)}", "};", "",
          "struct ExtensionInfo {", "  const char* name;", "  bool isDevice;", "  uint32_t specVersion;",
          "  std::span<const char* const> commands;  // every command it provides here",
          "};", "",
          "std::span<const ExtensionInfo> supportedExtensions();",
          "// Whether `features` has everything the spec requires of extension `index` (its",
          "// \"Feature Requirements\", as listed in icd/supported_extensions.txt).",
          "bool extensionFeaturesPresent(size_t index, const FeatureSet& features);", "",
          "}  // namespace tessera", ""]
    with open(os.path.join(out_dir, "extensions.h"), "w") as f:
        f.write("\n".join(h))
    c = ["// Generated by tools/gen_entrypoints.py from vk.xml. Do not edit.",
         "#include \"extensions.h\"", "", "namespace tessera {", "namespace {"]
    for i, (_, _, _, cmds) in enumerate(rows):
        if cmds:
            c.append(f"const char* const kCommands{i}[] = {{{', '.join(chr(34) + n + chr(34) for n in cmds)}}};")
    c.append("const ExtensionInfo kExtensions[] = {")
    for i, (name, typ, ver, cmds) in enumerate(rows):
        span = f"kCommands{i}" if cmds else "{}"
        c.append(f"  {{\"{name}\", {'true' if typ == 'device' else 'false'}, {ver}, {span}}},")
    c += ["};", "}  // namespace", "",
          "std::span<const ExtensionInfo> supportedExtensions() { return kExtensions; }", "",
          "bool extensionFeaturesPresent(size_t index, const FeatureSet& f) {",
          "  switch (index) {"]
    for i, (name, _, _, _) in enumerate(rows):
        if name in gates:
            cond = " && ".join("(" + " || ".join(f"f.{x}" for x in alt) + ")" for alt in gates[name])
            c.append(f"    case {i}: return {cond};  // {name}")
    c += ["    default: return true;", "  }", "}", "",
          "}  // namespace tessera", ""]
    with open(os.path.join(out_dir, "extensions.cpp"), "w") as f:
        f.write("\n".join(c))


def feature_structs(reg, types):
    """(struct name, sType, [bool member names]) for every feature struct Tessera exposes."""
    structs = []
    for t in reg.root.find("types"):
        if t.get("category") != "struct" or t.get("alias"):
            continue
        name = t.get("name")
        if name not in types:
            continue
        extends = (t.get("structextends") or "").split(",")
        if name != "VkPhysicalDeviceFeatures" and "VkPhysicalDeviceFeatures2" not in extends:
            continue
        stype = None
        bools = []
        for m in t.findall("member"):
            mname = m.find("name").text
            if mname == "sType":
                stype = m.get("values")
            elif m.find("type").text == "VkBool32":
                bools.append(mname)
        structs.append((name, stype, bools))
    return structs


def feature_names(reg, types):
    names = []
    for _, _, bools in feature_structs(reg, types):
        names += [b for b in bools if b not in names]
    return names


def gen_features(reg, types, out_dir):
    structs = feature_structs(reg, types)
    all_names = []
    for _, _, bools in structs:
        for b in bools:
            if b not in all_names:
                all_names.append(b)
    h = ["// Generated by tools/gen_entrypoints.py from vk.xml. Do not edit.",
         "#pragma once", "#include <vulkan/vulkan_core.h>", "", "#include \"supplement.h\"", "",
         "namespace tessera {", "",
         "// One flag per feature name of every feature struct Tessera exposes. A name that",
         "// several structs share (a promoted feature) is one flag, so they cannot disagree.",
         "struct FeatureSet {"]
    h += [f"  bool {n} = false;" for n in all_names]
    h += ["};", "",
          "// Writes `features` into pFeatures->features and every known struct of its pNext chain.",
          "void writeFeatures(const FeatureSet& features, VkPhysicalDeviceFeatures2* pFeatures);",
          "void writeFeatures(const FeatureSet& features, VkPhysicalDeviceFeatures* pFeatures);", "",
          "// Reads the features a VkDeviceCreateInfo asks for (pEnabledFeatures and the feature",
          "// structs in its pNext chain). Returns the name of the first requested feature that",
          "// `supported` lacks, or nullptr when all are supported.",
          "const char* readRequestedFeatures(const VkDeviceCreateInfo* info, const FeatureSet& supported,",
          "                                  FeatureSet& requested);", "",
          "}  // namespace tessera", ""]
    with open(os.path.join(out_dir, "feature_set.h"), "w") as f:
        f.write("\n".join(h))

    c = ["// Generated by tools/gen_entrypoints.py from vk.xml. Do not edit.",
         "#include \"feature_set.h\"", "", "namespace tessera {", "",
         "void writeFeatures(const FeatureSet& f, VkPhysicalDeviceFeatures* out) {"]
    core = next(s for s in structs if s[0] == "VkPhysicalDeviceFeatures")
    c += [f"  out->{b} = f.{b};" for b in core[2]]
    c += ["}", "",
          "void writeFeatures(const FeatureSet& f, VkPhysicalDeviceFeatures2* out) {",
          "  writeFeatures(f, &out->features);",
          "  for (auto* s = static_cast<VkBaseOutStructure*>(out->pNext); s; s = s->pNext) {",
          "    switch (s->sType) {"]
    for name, stype, bools in structs:
        if name == "VkPhysicalDeviceFeatures":
            continue
        c.append(f"      case {stype}: {{")
        c.append(f"        auto* p = reinterpret_cast<{name}*>(s);")
        c += [f"        p->{b} = f.{b};" for b in bools]
        c.append("        break;")
        c.append("      }")
    c += ["      default: break;", "    }", "  }", "}", "",
          "namespace {",
          "#define TESSERA_REQUEST(src, name) \\",
          "  if (src) { requested.name = true; if (!supported.name && !missing) missing = #name; }",
          "}  // namespace", "",
          "const char* readRequestedFeatures(const VkDeviceCreateInfo* info, const FeatureSet& supported,",
          "                                  FeatureSet& requested) {",
          "  const char* missing = nullptr;",
          "  if (const VkPhysicalDeviceFeatures* p = info->pEnabledFeatures) {"]
    c += [f"    TESSERA_REQUEST(p->{b}, {b})" for b in core[2]]
    c += ["  }",
          "  for (auto* s = static_cast<const VkBaseInStructure*>(info->pNext); s; s = s->pNext) {",
          "    switch (s->sType) {",
          "      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2: {",
          "        auto* p = &reinterpret_cast<const VkPhysicalDeviceFeatures2*>(s)->features;"]
    c += [f"        TESSERA_REQUEST(p->{b}, {b})" for b in core[2]]
    c += ["        break;", "      }"]
    for name, stype, bools in structs:
        if name == "VkPhysicalDeviceFeatures":
            continue
        c.append(f"      case {stype}: {{")
        c.append(f"        auto* p = reinterpret_cast<const {name}*>(s);")
        c += [f"        TESSERA_REQUEST(p->{b}, {b})" for b in bools]
        c.append("        break;")
        c.append("      }")
    c += ["      default: break;", "    }", "  }", "  return missing;", "}", "",
          "}  // namespace tessera", ""]
    with open(os.path.join(out_dir, "feature_set.cpp"), "w") as f:
        f.write("\n".join(c))


def property_structs(reg, types):
    """Core property structs whose members all live in VkPhysicalDeviceVulkan1xProperties."""
    core_members = {}
    structs = {}
    for t in reg.root.find("types"):
        if t.get("category") != "struct" or t.get("alias"):
            continue
        name = t.get("name")
        extends = (t.get("structextends") or "").split(",")
        if name not in types or "VkPhysicalDeviceProperties2" not in extends:
            continue
        stype = None
        members = []
        for m in t.findall("member"):
            mname = m.find("name").text
            if mname == "sType":
                stype = m.get("values")
            elif mname != "pNext":
                is_array = "[" in "".join(m.itertext())
                members.append((mname, is_array))
        structs[name] = (stype, members)
    for version in ("11", "12", "13"):
        for mname, _ in structs[f"VkPhysicalDeviceVulkan{version}Properties"][1]:
            core_members[mname] = f"v{version}"
    result = []
    for name, (stype, members) in sorted(structs.items()):
        if name.startswith("VkPhysicalDeviceVulkan1"):
            result.append((name, stype, [(m, a, "v" + name[22:24]) for m, a in members]))
        elif all(m in core_members for m, _ in members):
            result.append((name, stype, [(m, a, core_members[m]) for m, a in members]))
    return result


def gen_properties(reg, types, out_dir):
    structs = property_structs(reg, types)
    h = ["// Generated by tools/gen_entrypoints.py from vk.xml. Do not edit.",
         "#pragma once", "#include <vulkan/vulkan_core.h>", "",
         "namespace tessera {", "",
         "struct CoreProperties {",
         "  VkPhysicalDeviceVulkan11Properties v11{};",
         "  VkPhysicalDeviceVulkan12Properties v12{};",
         "  VkPhysicalDeviceVulkan13Properties v13{};",
         "};", "",
         "// Fills every struct of the chain whose members are all part of the core 1.1-1.3",
         "// property structs (those and the promoted extension structs). Returns false for a",
         "// struct it does not know, so the caller can handle the rest.",
         "bool writeCoreProperties(const CoreProperties& core, VkBaseOutStructure* s);", "",
         "}  // namespace tessera", ""]
    with open(os.path.join(out_dir, "core_properties.h"), "w") as f:
        f.write("\n".join(h))
    c = ["// Generated by tools/gen_entrypoints.py from vk.xml. Do not edit.",
         "#include \"core_properties.h\"", "#include <cstring>", "",
         "namespace tessera {", "",
         "bool writeCoreProperties(const CoreProperties& core, VkBaseOutStructure* s) {",
         "  switch (s->sType) {"]
    for name, stype, members in structs:
        c.append(f"    case {stype}: {{")
        c.append(f"      auto* p = reinterpret_cast<{name}*>(s);")
        for m, is_array, src in members:
            if is_array:
                c.append(f"      std::memcpy(p->{m}, core.{src}.{m}, sizeof(p->{m}));")
            else:
                c.append(f"      p->{m} = core.{src}.{m};")
        c.append("      return true;")
        c.append("    }")
    c += ["    default: return false;", "  }", "}", "", "}  // namespace tessera", ""]
    with open(os.path.join(out_dir, "core_properties.cpp"), "w") as f:
        f.write("\n".join(c))


def gen_supplement_header(reg, out_dir):
    """supplement.h: C declarations of what the supplements add and the headers lack: each
    supplemented extension's structs and the enum values its require blocks add to existing
    enum types (offsets: 1000000000 + (number - 1) x 1000 + offset; bitpos: 1 << bitpos),
    inside #ifndef VK_<extension name>, which headers that know the extension define."""
    h = ["// Generated by tools/gen_entrypoints.py from icd/registry_supplement.xml. Do not edit.",
         "#pragma once", "#include <vulkan/vulkan_core.h>", ""]
    types = {t.get("name"): t for t in reg.supplemented if t.tag == "type"}
    enum_types = {e.get("name"): e for e in reg.supplemented if e.tag == "enums"}
    for ext in (e for e in reg.supplemented if e.tag == "extension"):
        name = ext.get("name")
        body = []
        # Enum types first: the structures below may have members of them.
        for req in ext.findall("require"):
            for t in req.findall("type"):
                values = enum_types.get(t.get("name"))
                if values is None:
                    continue
                body.append(f"typedef enum {values.get('name')} {{")
                body += [f"  {v.get('name')} = {v.get('value')}," for v in values.findall("enum")]
                body.append(f"}} {values.get('name')};")
        for req in ext.findall("require"):
            for e in req.findall("enum"):
                extends = e.get("extends")
                if not extends:
                    continue
                if e.get("offset") is not None:
                    value = 1000000000 + (int(ext.get("number")) - 1) * 1000 + int(e.get("offset"))
                elif e.get("bitpos") is not None:
                    value = 1 << int(e.get("bitpos"))
                else:
                    continue
                body.append(f"constexpr {extends} {e.get('name')} = {extends}({value});")
            for t in req.findall("type"):
                struct = types.get(t.get("name"))
                if struct is None or struct.get("category") != "struct":
                    continue
                body.append(f"struct {struct.get('name')} {{")
                body += [f"  {' '.join(''.join(m.itertext()).split())};" for m in struct.findall("member")]
                body.append("};")
        if body:
            h += [f"#ifndef {name}", f"#define {name} 1"] + body + [f"#endif  // {name}", ""]
    with open(os.path.join(out_dir, "supplement.h"), "w") as f:
        f.write("\n".join(h))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--registry", required=True)
    ap.add_argument("--extensions", required=True, help="icd/supported_extensions.txt")
    ap.add_argument("--supplement", action="append", default=[],
                    help="registry text the registry lacks (icd/registry_supplement.xml)")
    ap.add_argument("--out-dir", required=True)
    args = ap.parse_args()
    reg = Registry(args.registry, args.supplement)
    supported, gates = read_supported(args.extensions, reg)
    ext_index = {name: i for i, name in enumerate(supported)}
    os.makedirs(args.out_dir, exist_ok=True)
    providers = provided_commands(reg, set(supported))
    gen_supplement_header(reg, args.out_dir)
    gen_entrypoints(reg, providers, ext_index, supported, args.out_dir)
    types = provided_types(reg, set(supported))
    gen_extensions(reg, supported, gates, feature_names(reg, types), args.out_dir)
    gen_features(reg, types, args.out_dir)
    gen_properties(reg, types, args.out_dir)


if __name__ == "__main__":
    sys.exit(main())
