// For tests: what /proc/self/smaps says about a mapping.
#pragma once

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

namespace hostloop::base {

// The VmFlags line of the mapping that holds `address` ("" if none does).
// " hg" in it means the mapping asked for transparent huge pages.
inline std::string VmFlagsAt(const void* address) {
  std::ifstream smaps("/proc/self/smaps");
  const auto target = reinterpret_cast<std::uintptr_t>(address);
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    unsigned long begin = 0;
    unsigned long end = 0;
    char dash = 0;
    // A mapping's first line starts "begin-end "; its fields start "Name:".
    if (std::sscanf(line.c_str(), "%lx%c%lx ", &begin, &dash, &end) == 3 && dash == '-') {
      inside = target >= begin && target < end;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line;
    }
  }
  return "";
}

inline bool AsksForHugePages(const void* address) {
  return VmFlagsAt(address).find(" hg") != std::string::npos;
}

}  // namespace hostloop::base
