#!/usr/bin/env python3
"""Generate the format table (src/format_table.cpp in the build tree) from vk.xml.

Only formats that core Vulkan 1.0-1.3 defines are emitted; extension-only formats (PVRTC,
A1B5G5R5, R16G16_S10_5, ...) stay out until an extension that defines them is supported.
"""
import argparse
import re
import sys

from vkxml import Registry

NUMERIC = {
    "UNORM": "UNorm", "SNORM": "SNorm", "USCALED": "UScaled", "SSCALED": "SScaled",
    "UINT": "UInt", "SINT": "SInt", "UFLOAT": "UFloat", "SFLOAT": "SFloat", "SRGB": "Srgb",
}
COMPRESSION = {
    None: "None", "BC": "BC", "ETC2": "ETC2", "EAC": "EAC", "ASTC LDR": "ASTC_LDR",
    "ASTC HDR": "ASTC_HDR",
}


def core_format_names(reg):
    names = set()
    for enums in reg.root.findall("enums"):
        if enums.get("name") == "VkFormat":
            names.update(e.get("name") for e in enums.findall("enum") if not e.get("alias"))
    for feature in reg.features():
        for req in reg.require_blocks(feature):
            for e in req.findall("enum"):
                if e.get("extends") == "VkFormat" and not e.get("alias"):
                    names.add(e.get("name"))
    names.discard("VK_FORMAT_UNDEFINED")
    return names


def enum_value(reg, name):
    for enums in reg.root.findall("enums"):
        if enums.get("name") == "VkFormat":
            for e in enums.findall("enum"):
                if e.get("name") == name and e.get("value") is not None:
                    return int(e.get("value"))
    for elem in reg.root.iter("enum"):
        if elem.get("name") == name and elem.get("extends") == "VkFormat" and elem.get("offset"):
            ext_number = elem.get("extnumber")
            if ext_number is None:
                raise RuntimeError(f"no extnumber for {name}")
            value = 1000000000 + (int(ext_number) - 1) * 1000 + int(elem.get("offset"))
            return -value if elem.get("dir") == "-" else value
    raise RuntimeError(f"no value for {name}")


# Errata of vk.xml 1.3.239's <formats> element, checked against the spec's format
# descriptions: B10G11R11 has an 11-bit R at bit 0 and G at bit 11 (the registry lists R as
# 10 bits), R64G64 names its second component G (the registry says B), and B5G5R5A1 is B, G,
# R, A from the most significant bit (the registry swaps R and G; found by the CTS blit tests),
# and BC4_SNORM_BLOCK's red and BC5_SNORM_BLOCK's red and green are SNORM (the registry says
# SRGB; found by the BC decoder's tests).
COMPONENT_ERRATA = {
    ("VK_FORMAT_BC4_SNORM_BLOCK", "R"): {"numericFormat": "SNORM"},
    ("VK_FORMAT_BC5_SNORM_BLOCK", "R"): {"numericFormat": "SNORM"},
    ("VK_FORMAT_BC5_SNORM_BLOCK", "G"): {"numericFormat": "SNORM"},
    ("VK_FORMAT_B5G5R5A1_UNORM_PACK16", 1): {"name": "G"},
    ("VK_FORMAT_B5G5R5A1_UNORM_PACK16", 2): {"name": "R"},
    ("VK_FORMAT_B10G11R11_UFLOAT_PACK32", "R"): {"bits": "11"},
    ("VK_FORMAT_R64G64_UINT", 1): {"name": "G"},
    ("VK_FORMAT_R64G64_SINT", 1): {"name": "G"},
    ("VK_FORMAT_R64G64_SFLOAT", 1): {"name": "G"},
}


def apply_errata(fmt, comps):
    for i, c in enumerate(comps):
        for key in ((fmt.get("name"), c.get("name")), (fmt.get("name"), i)):
            for attr, value in COMPONENT_ERRATA.get(key, {}).items():
                c.set(attr, value)


def component_offsets(fmt, comps):
    """Bit offset of each component: packed formats list components MSB first, and bits the
    registry leaves unnamed (the X8 of X8_D24, the exponent of E5B9G9R9) sit above them."""
    packed = int(fmt.get("packed", "0"))
    offsets = []
    bits = [0 if c.get("bits") == "compressed" else int(c.get("bits")) for c in comps]
    block_bits = int(fmt.get("blockSize")) * 8
    if bits and all(b and b % 8 and b < 16 for b in bits) and block_bits == 16 * len(comps):
        # R10X6, R12X4 and their 2PACK16/4PACK16 forms: each component fills the top bits of
        # its own 16-bit word, the X padding below it.
        return [16 * i + (16 - b) for i, b in enumerate(bits)]
    if packed:
        pos = sum(int(c.get("bits")) for c in comps)
        for c in comps:
            pos -= int(c.get("bits"))
            offsets.append(pos)
    else:
        pos = 0
        for c in comps:
            offsets.append(pos)
            bits = c.get("bits")
            pos += 0 if bits == "compressed" else int(bits)
    return offsets


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--registry", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    reg = Registry(args.registry)
    core = core_format_names(reg)

    rows = []
    for fmt in reg.root.find("formats"):
        name = fmt.get("name")
        if name not in core:
            continue
        comps = fmt.findall("component")
        apply_errata(fmt, comps)
        offsets = component_offsets(fmt, comps)
        extent = [int(v) for v in fmt.get("blockExtent", "1,1,1").split(",")]
        planes = len(fmt.findall("plane")) or 1
        aspects = set()
        comp_init = []
        for c, off in zip(comps, offsets):
            cname = c.get("name")
            bits = 0 if c.get("bits") == "compressed" else int(c.get("bits"))
            comp_init.append(f"{{'{cname}', {bits}, {off}, NumericFormat::{NUMERIC[c.get('numericFormat')]}, "
                             f"{c.get('planeIndex', '0')}}}")
            aspects.add({"D": "VK_IMAGE_ASPECT_DEPTH_BIT", "S": "VK_IMAGE_ASPECT_STENCIL_BIT"}.get(
                cname, "VK_IMAGE_ASPECT_COLOR_BIT"))
        if planes > 1:
            aspects = {"VK_IMAGE_ASPECT_COLOR_BIT"}
        while len(comp_init) < 4:
            comp_init.append("{0, 0, 0, NumericFormat::None, 0}")
        plane_init = []
        for plane in fmt.findall("plane"):
            plane_init.append(f"{{{plane.get('compatible')}, {plane.get('widthDivisor')}, {plane.get('heightDivisor')}}}")
        while len(plane_init) < 3:
            plane_init.append("{VK_FORMAT_UNDEFINED, 1, 1}")
        chroma = {"420": "2, 2", "422": "2, 1", "444": "1, 1"}.get(fmt.get("chroma"), "1, 1")
        shared_exp = "true" if re.match(r"VK_FORMAT_E5B9G9R9", name) else "false"
        rows.append((enum_value(reg, name), name, (
            f"  {{{name}, \"{name}\", \"{fmt.get('class')}\", {fmt.get('blockSize')}, "
            f"{extent[0]}, {extent[1]}, {extent[2]}, {fmt.get('packed', '0')}, "
            f"Compression::{COMPRESSION[fmt.get('compressed')]}, {len(comps)}, "
            f"{{{', '.join(comp_init)}}}, {planes}, {shared_exp}, "
            f"{'true' if fmt.get('chroma') else 'false'}, "
            f"{' | '.join(sorted(aspects))}, {{{', '.join(plane_init)}}}, {chroma}}},")))
    rows.sort()

    out = [
        "// Generated by tools/gen_formats.py from vk.xml. Do not edit.",
        "#include \"tessera/format.h\"",
        "#include <algorithm>",
        "#include <array>",
        "",
        "namespace tessera {",
        "namespace {",
        f"constexpr std::array<FormatInfo, {len(rows)}> kFormats = {{{{",
    ]
    out += [r[2] for r in rows]
    out += [
        "}};",
        "}  // namespace",
        "",
        "const FormatInfo* formatInfo(VkFormat format) {",
        "  auto it = std::lower_bound(kFormats.begin(), kFormats.end(), format,",
        "      [](const FormatInfo& f, VkFormat v) { return f.format < v; });",
        "  return (it != kFormats.end() && it->format == format) ? &*it : nullptr;",
        "}",
        "",
        "std::span<const FormatInfo> allFormats() { return kFormats; }",
        "",
        "}  // namespace tessera",
        "",
    ]
    with open(args.out, "w") as f:
        f.write("\n".join(out))


if __name__ == "__main__":
    sys.exit(main())
