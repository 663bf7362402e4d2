"""Shared helpers for the generators that read the Vulkan registry (vk.xml).

Every generator in tools/ goes through this module so that "which commands, formats and
extensions exist in core Vulkan 1.0-1.3" is decided in one place.
"""
import xml.etree.ElementTree as ET

CORE_VERSIONS = ["VK_VERSION_1_0", "VK_VERSION_1_1", "VK_VERSION_1_2", "VK_VERSION_1_3"]


class Registry:
    def __init__(self, path, supplements=()):
        self.root = ET.parse(path).getroot()
        self.supplemented = []  # <enums>, <type>, <command> and <extension> elements merged from supplements
        for supplement in supplements:
            self._merge(ET.parse(supplement).getroot())
        self.header_version = self._header_version()
        self.extensions = {e.get("name"): e for e in self.root.find("extensions")}
        self.commands = {}
        self.command_aliases = {}
        for cmd in self.root.find("commands"):
            if not self._is_vulkan(cmd):
                continue
            if cmd.get("alias"):
                self.command_aliases[cmd.get("name")] = cmd.get("alias")
                continue
            proto = cmd.find("proto")
            name = proto.find("name").text
            self.commands[name] = cmd

    def _merge(self, supplement):
        """Adds the <commands> and <extensions> children of a supplement (icd/registry_supplement.xml)
        whose names the registry lacks: a newer registry's own definitions win."""
        def key(elem):
            proto = elem.find("proto")
            return proto.find("name").text if proto is not None else elem.get("name")

        # Top-level <enums> blocks (an enum type's values) are added whole.
        have_enums = {e.get("name") for e in self.root.findall("enums")}
        for enums in supplement.findall("enums"):
            if enums.get("name") not in have_enums:
                self.root.append(enums)
                self.supplemented.append(enums)
        for section in ("types", "commands", "extensions"):
            if supplement.find(section) is None:
                continue
            have = {key(e) for e in self.root.find(section)}
            for elem in supplement.find(section):
                if key(elem) not in have:
                    self.root.find(section).append(elem)
                    self.supplemented.append(elem)

    @staticmethod
    def _is_vulkan(elem):
        api = elem.get("api")
        return api is None or "vulkan" in api.split(",")

    def _header_version(self):
        for t in self.root.find("types"):
            name = t.find("name")
            if name is not None and name.text == "VK_HEADER_VERSION":
                return int("".join(t.itertext()).split()[-1])
        raise RuntimeError("VK_HEADER_VERSION not found")

    def features(self):
        """Core <feature> blocks of the Vulkan API (not Vulkan SC), in version order."""
        for f in self.root.findall("feature"):
            if f.get("name") in CORE_VERSIONS and "vulkan" in f.get("api", "vulkan").split(","):
                yield f

    def require_blocks(self, elem):
        for req in elem.findall("require"):
            if self._is_vulkan(req):
                yield req

    def resolve_command(self, name):
        return self.command_aliases.get(name, name)

    def command_level(self, name):
        """'global', 'instance', 'physical_device' or 'device', from the first parameter."""
        if name in ("vkGetInstanceProcAddr",):
            return "instance"
        cmd = self.commands[self.resolve_command(name)]
        first = cmd.find("param").find("type").text
        if first == "VkInstance":
            return "instance"
        if first == "VkPhysicalDevice":
            return "physical_device"
        if first in ("VkDevice", "VkQueue", "VkCommandBuffer"):
            return "device"
        return "global"

    def command_prototype(self, name, impl_name):
        """C prototype of command `name` (resolving aliases) renamed to impl_name."""
        cmd = self.commands[self.resolve_command(name)]
        proto = cmd.find("proto")
        ret = "".join(proto.itertext()).rsplit(proto.find("name").text, 1)[0].strip()
        params = []
        for p in cmd.findall("param"):
            if not self._is_vulkan(p):
                continue
            params.append(" ".join("".join(p.itertext()).split()))
        return ret, f"{impl_name}({', '.join(params) or 'void'})"
