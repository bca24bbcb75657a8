#include "grading/device_image.hpp"

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

namespace labrun {
namespace {

// ELF64 layout (System V gABI): offsets in the file header, a section header and a symbol.
constexpr std::size_t kHeaderBytes = 64;
constexpr std::size_t kSectionOffsetField = 0x28;     // e_shoff
constexpr std::size_t kSectionEntrySizeField = 0x3A;  // e_shentsize, e_shnum, e_shstrndx follow
constexpr std::size_t kSectionHeaderBytes = 64;
constexpr std::size_t kSymbolBytes = 24;
constexpr std::uint32_t kSymbolTable = 2;   // SHT_SYMTAB
constexpr unsigned char kObjectSymbol = 1;  // STT_OBJECT, in the low bits of st_info
constexpr std::uint64_t kAllocated = 0x2;   // SHF_ALLOC
constexpr std::uint64_t kWritable = 0x1;    // SHF_WRITE
constexpr std::size_t kMaxSections = 65535;
// The records of a function's .nv.info.<name> section: a format byte, an attribute byte, then two
// bytes that hold the value (formats 1 to 3) or the size of the data that follows (format 4).
constexpr unsigned char kRecordWithData = 0x04;
constexpr unsigned char kCoopGroupInstructionOffsets = 0x28;  // EIATTR_COOP_GROUP_INSTR_OFFSETS
constexpr unsigned char kNumberOfMbarriers = 0x38;            // EIATTR_NUM_MBARRIERS
constexpr unsigned char kNumberOfBarriers = 0x4C;             // EIATTR_NUM_BARRIERS

template <typename T>
bool read_at(std::string_view bytes, std::uint64_t offset, T& value) {
  if (offset > bytes.size() || bytes.size() - offset < sizeof(T)) {
    return false;
  }
  std::memcpy(&value, bytes.data() + offset, sizeof(T));
  return true;
}

constexpr std::uint16_t kUndefinedSection = 0;  // SHN_UNDEF

struct Section {
  std::uint32_t name = 0;
  std::uint32_t type = 0;
  std::uint64_t flags = 0;
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
  std::uint32_t link = 0;  // a symbol table's string table
  std::string label;
};

bool starts_with(const std::string& text, const char* prefix) {
  return text.rfind(prefix, 0) == 0;
}

// A symbol's name from the symbol table's string table: empty where it lies outside the file or
// is longer than kDeviceImageGlobalNameMax bytes.
std::string symbol_name(std::string_view image, const Section* strings, std::uint32_t name) {
  const std::uint64_t name_at = strings != nullptr ? strings->offset + name : image.size();
  if (strings == nullptr || name >= strings->size || name_at >= image.size()) {
    return "";
  }
  const std::size_t end = image.find('\0', static_cast<std::size_t>(name_at));
  const std::size_t length =
      (end == std::string_view::npos ? image.size() : end) - static_cast<std::size_t>(name_at);
  return length <= kDeviceImageGlobalNameMax
             ? std::string(image.substr(static_cast<std::size_t>(name_at), length))
             : std::string();
}

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

// Reads a function's attribute records into `function`; false when they are not a whole sequence of
// records inside the section.
bool read_attributes(std::string_view image, const Section& info, DeviceImageFunction& function) {
  if (info.offset > image.size() || info.size > image.size() - info.offset) {
    return false;
  }
  const std::string_view records =
      image.substr(static_cast<std::size_t>(info.offset), static_cast<std::size_t>(info.size));
  for (std::size_t at = 0; at < records.size();) {
    if (records.size() - at < 4) {
      return false;
    }
    const auto format = static_cast<unsigned char>(records[at]);
    const auto attribute = static_cast<unsigned char>(records[at + 1]);
    std::uint16_t value = 0;
    std::memcpy(&value, records.data() + at + 2, sizeof value);
    at += 4;
    if (format == kRecordWithData) {
      if (records.size() - at < value) {
        return false;
      }
      at += value;
      if (attribute == kCoopGroupInstructionOffsets && value > 0) {
        function.warp_synchronous = true;
      }
    } else if (format >= 1 && format <= 3) {
      if (attribute == kNumberOfBarriers) {
        function.barriers = value;
      } else if (attribute == kNumberOfMbarriers) {
        function.mbarriers = value;
      }
    } else {
      return false;
    }
  }
  return true;
}

}  // namespace

std::optional<DeviceImageFootprint> device_image_footprint(std::string_view image, std::string& problem) {
  if (image.size() < kHeaderBytes || image.compare(0, 4,
                                                   "\x7f"
                                                   "ELF") != 0) {
    problem = "not an ELF file";
    return std::nullopt;
  }
  if (image[4] != 2 || image[5] != 1) {
    problem = "not a 64-bit little-endian ELF file";
    return std::nullopt;
  }
  std::uint64_t section_table = 0;
  std::uint16_t entry_size = 0;
  std::uint16_t count = 0;
  std::uint16_t names_index = 0;
  if (!read_at(image, kSectionOffsetField, section_table) ||
      !read_at(image, kSectionEntrySizeField, entry_size) ||
      !read_at(image, kSectionEntrySizeField + 2, count) ||
      !read_at(image, kSectionEntrySizeField + 4, names_index) || entry_size < kSectionHeaderBytes ||
      count == 0 || count > kMaxSections || names_index >= count) {
    problem = "its section table cannot be read";
    return std::nullopt;
  }
  std::vector<Section> sections(count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint64_t at = section_table + i * static_cast<std::uint64_t>(entry_size);
    Section& s = sections[i];
    if (!read_at(image, at, s.name) || !read_at(image, at + 4, s.type) || !read_at(image, at + 8, s.flags) ||
        !read_at(image, at + 24, s.offset) || !read_at(image, at + 32, s.size) ||
        !read_at(image, at + 40, s.link)) {
      problem = "section " + std::to_string(i) + " lies outside the file";
      return std::nullopt;
    }
  }
  const Section& names = sections[names_index];
  for (Section& s : sections) {
    const std::uint64_t at = names.offset + s.name;
    if (s.name >= names.size || at >= image.size()) {
      problem = "a section's name lies outside the file";
      return std::nullopt;
    }
    const std::size_t end = image.find('\0', static_cast<std::size_t>(at));
    s.label = std::string(
        image.substr(static_cast<std::size_t>(at),
                     (end == std::string_view::npos ? image.size() : end) - static_cast<std::size_t>(at)));
  }
  const auto is_global_data = [](const Section& s) {
    return (s.flags & kAllocated) != 0 && (s.flags & kWritable) != 0 && !starts_with(s.label, ".nv.shared") &&
           !starts_with(s.label, ".nv.local");
  };
  // Per section, the furthest end of any variable placed in it; the named variables.
  std::vector<std::uint64_t> extent(count, 0);
  std::vector<DeviceImageGlobal> globals;
  std::vector<std::string> outside_calls;
  for (std::size_t i = 0; i < count; ++i) {
    extent[i] = is_global_data(sections[i]) ? sections[i].size : 0;
  }
  for (const Section& table : sections) {
    if (table.type != kSymbolTable) {
      continue;
    }
    if (table.offset > image.size() || table.size > image.size() - table.offset) {
      problem = "the symbol table lies outside the file";
      return std::nullopt;
    }
    const Section* strings = table.link < count ? &sections[table.link] : nullptr;
    for (std::uint64_t at = table.offset; at + kSymbolBytes <= table.offset + table.size;
         at += kSymbolBytes) {
      std::uint32_t name = 0;
      unsigned char info = 0;
      std::uint16_t section = 0;
      std::uint64_t value = 0;
      std::uint64_t size = 0;
      if (!read_at(image, at, name) || !read_at(image, at + 4, info) || !read_at(image, at + 6, section) ||
          !read_at(image, at + 8, value) || !read_at(image, at + 16, size)) {
        problem = "a symbol lies outside the file";
        return std::nullopt;
      }
      const std::string symbol = symbol_name(image, strings, name);
      if (section == kUndefinedSection && name != 0 && !starts_with(symbol, ".nv.reservedSmem") &&
          outside_calls.size() < kDeviceImageGlobalsMax) {
        outside_calls.push_back(symbol.empty() ? "(a symbol whose name cannot be read)" : symbol);
      }
      if (section > 0 && section < count && is_global_data(sections[section])) {
        extent[section] = std::max(extent[section], saturating_add(value, size));
        if ((info & 0x0F) == kObjectSymbol && size > 0 && !symbol.empty() &&
            globals.size() < kDeviceImageGlobalsMax) {
          globals.push_back({symbol, size});
        }
      }
    }
  }
  DeviceImageFootprint footprint;
  footprint.globals = std::move(globals);
  footprint.outside_calls = std::move(outside_calls);
  const auto section_named = [&](const std::string& label) -> const Section* {
    const auto found =
        std::find_if(sections.begin(), sections.end(), [&](const Section& s) { return s.label == label; });
    return found == sections.end() ? nullptr : &*found;
  };
  for (const Section& code : sections) {
    if (!starts_with(code.label, ".text.") || footprint.functions.size() >= kDeviceImageGlobalsMax) {
      continue;
    }
    DeviceImageFunction function;
    function.name = code.label.substr(6);
    if (const Section* shared = section_named(".nv.shared." + function.name)) {
      function.shared_bytes = shared->size;
    }
    if (const Section* info = section_named(".nv.info." + function.name)) {
      function.has_attributes = true;
      function.attributes_read = read_attributes(image, *info, function);
    }
    footprint.functions.push_back(std::move(function));
  }
  for (std::size_t i = 0; i < count; ++i) {
    footprint.global_bytes = saturating_add(footprint.global_bytes, extent[i]);
    if (starts_with(sections[i].label, ".nv.shared.") &&
        !starts_with(sections[i].label, ".nv.shared.reserved")) {
      footprint.shared_bytes = saturating_add(footprint.shared_bytes, sections[i].size);
    }
    if (starts_with(sections[i].label, ".nv.constant") && (sections[i].flags & kAllocated) != 0) {
      footprint.constant_bytes = saturating_add(footprint.constant_bytes, sections[i].size);
    }
  }
  return footprint;
}

bool DeviceImageFootprint::any_shared_memory() const {
  return shared_bytes > 0;
}

bool DeviceImageFootprint::any_synchronisation() const {
  return std::any_of(functions.begin(), functions.end(),
                     [](const DeviceImageFunction& f) { return f.may_synchronise(); });
}

}  // namespace labrun
