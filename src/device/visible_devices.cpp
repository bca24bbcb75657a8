#include "device/visible_devices.hpp"

#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace labrun {
namespace {

std::string trimmed(const std::string& text) {
  const std::size_t first = text.find_first_not_of(" \t");
  if (first == std::string::npos) {
    return "";
  }
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

}  // namespace

std::string visible_device_entry(const std::optional<std::string>& current, int index) {
  if (index < 0) {
    throw std::out_of_range("device " + std::to_string(index) +
                            " does not exist (devices are numbered from 0)");
  }
  if (!current || trimmed(*current).empty()) {
    return std::to_string(index);
  }
  std::vector<std::string> entries;
  std::istringstream listed(*current);
  std::string entry;
  while (std::getline(listed, entry, ',')) {
    entries.push_back(trimmed(entry));
  }
  if (static_cast<std::size_t>(index) >= entries.size()) {
    throw std::out_of_range("device " + std::to_string(index) +
                            " does not exist: CUDA_VISIBLE_DEVICES=" + *current + " makes " +
                            std::to_string(entries.size()) + " visible, numbered from 0");
  }
  return entries[static_cast<std::size_t>(index)];
}

std::vector<int> parse_device_list(const std::string& list) {
  std::vector<int> devices;
  std::istringstream listed(list);
  std::string entry;
  while (std::getline(listed, entry, ',')) {
    const std::string text = trimmed(entry);
    std::size_t used = 0;
    int value = -1;
    try {
      value = std::stoi(text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (text.empty() || used != text.size() || value < 0) {
      throw std::invalid_argument("'" + text + "' in --devices is not a device number");
    }
    devices.push_back(value);
  }
  if (devices.empty()) {
    throw std::invalid_argument("--devices lists no device");
  }
  return devices;
}

void choose_device(int index) {
  const char* current = std::getenv("CUDA_VISIBLE_DEVICES");
  const std::string entry =
      visible_device_entry(current == nullptr ? std::nullopt : std::optional<std::string>(current), index);
  ::setenv("CUDA_VISIBLE_DEVICES", entry.c_str(), 1);
}

}  // namespace labrun
