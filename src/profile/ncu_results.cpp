#include "profile/ncu_results.hpp"

#include <algorithm>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace labrun {
namespace {

// Splits one CSV line with double-quoted fields ("" inside quotes is a quote).
std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> fields;
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.push_back(field);
      field.clear();
    } else if (c != '\r') {
      field += c;
    }
  }
  fields.push_back(field);
  return fields;
}

bool parse_number(std::string text, double& value) {
  text.erase(std::remove(text.begin(), text.end(), ','), text.end());
  if (text.empty()) {
    return false;
  }
  try {
    std::size_t used = 0;
    value = std::stod(text, &used);
    return used == text.size();
  } catch (const std::exception&) {
    return false;
  }
}

bool is_integer(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Bytes per unit for the units ncu may print a byte count in.
double bytes_per_unit(const std::string& unit) {
  if (unit.empty() || unit == "byte" || unit == "B") {
    return 1.0;
  }
  if (unit == "Kbyte" || unit == "KB") {
    return 1e3;
  }
  if (unit == "Mbyte" || unit == "MB") {
    return 1e6;
  }
  if (unit == "Gbyte" || unit == "GB") {
    return 1e9;
  }
  return 0.0;
}

double metric_bytes(const NcuKernelRow& row, const std::string& metric) {
  const auto value = row.metrics.find(metric);
  if (value == row.metrics.end()) {
    throw std::runtime_error("ncu reported no " + metric + " for kernel " + std::to_string(row.id) + " (" +
                             row.kernel_name + ")");
  }
  const auto unit = row.units.find(metric);
  const double scale = bytes_per_unit(unit == row.units.end() ? "" : unit->second);
  if (scale == 0.0) {
    throw std::runtime_error("ncu reported " + metric + " in '" + unit->second + "', not a byte unit");
  }
  return value->second * scale;
}

// An instruction count ncu reported, or nullopt when it reported none for this kernel (an older ncu,
// a metric the card lacks): the case's FP32 counts are then left out, never taken as zero.
std::optional<double> metric_count(const NcuKernelRow& row, const std::string& metric) {
  const auto value = row.metrics.find(metric);
  if (value == row.metrics.end()) {
    return std::nullopt;
  }
  return value->second;
}

}  // namespace

std::vector<NcuKernelRow> parse_ncu_raw_csv(const std::string& text) {
  std::istringstream lines(text);
  std::string line;
  std::vector<std::string> header;
  std::vector<std::string> units;
  std::vector<NcuKernelRow> rows;
  std::size_t id_column = 0;
  std::size_t name_column = 0;
  int line_number = 0;
  while (std::getline(lines, line)) {
    ++line_number;
    if (line.empty() || line.front() != '"') {
      continue;  // ncu's own messages, blank lines
    }
    std::vector<std::string> fields = split_csv_line(line);
    if (header.empty()) {
      header = std::move(fields);
      const auto id = std::find(header.begin(), header.end(), "ID");
      const auto name = std::find(header.begin(), header.end(), "Kernel Name");
      if (id == header.end() || name == header.end()) {
        throw std::runtime_error("ncu CSV line " + std::to_string(line_number) +
                                 ": the header has no ID or Kernel Name column");
      }
      id_column = static_cast<std::size_t>(id - header.begin());
      name_column = static_cast<std::size_t>(name - header.begin());
      continue;
    }
    if (fields.size() != header.size()) {
      throw std::runtime_error("ncu CSV line " + std::to_string(line_number) + ": " +
                               std::to_string(fields.size()) + " fields where the header has " +
                               std::to_string(header.size()));
    }
    if (!is_integer(fields[id_column])) {
      if (rows.empty() && units.empty()) {
        units = std::move(fields);  // the units row, under the header
        continue;
      }
      throw std::runtime_error("ncu CSV line " + std::to_string(line_number) + ": ID '" + fields[id_column] +
                               "' is not a number");
    }
    NcuKernelRow row;
    row.id = std::stoi(fields[id_column]);
    row.kernel_name = fields[name_column];
    for (std::size_t i = 0; i < header.size(); ++i) {
      // Metric columns are named like "dram__bytes_read.sum": lower case with a double underscore.
      if (header[i].find("__") == std::string::npos) {
        continue;
      }
      double value = 0.0;
      if (parse_number(fields[i], value)) {
        row.metrics[header[i]] = value;
        if (!units.empty()) {
          row.units[header[i]] = units[i];
        }
      }
    }
    rows.push_back(std::move(row));
  }
  if (header.empty()) {
    throw std::runtime_error("ncu printed no CSV (no header row found)");
  }
  std::sort(rows.begin(), rows.end(),
            [](const NcuKernelRow& a, const NcuKernelRow& b) { return a.id < b.id; });
  return rows;
}

std::vector<ProfiledCase> assign_rows_to_cases(const std::vector<NcuKernelRow>& rows,
                                               const std::vector<ProfileItem>& items,
                                               std::vector<std::string>& skipped) {
  std::vector<std::size_t> markers;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].kernel_name.find(kProfileMarkerKernel) != std::string::npos) {
      markers.push_back(i);
    }
  }
  if (markers.size() != 2 * items.size()) {
    throw std::runtime_error("the profile has " + std::to_string(markers.size()) + " case markers; " +
                             std::to_string(2 * items.size()) + " were launched for " +
                             std::to_string(items.size()) + " cases");
  }
  std::vector<ProfiledCase> cases;
  for (std::size_t item = 0; item < items.size(); ++item) {
    ProfiledCase profiled;
    profiled.name = items[item].name;
    profiled.size_label = items[item].size_label;
    profiled.elements = items[item].elements;
    profiled.model_bytes_per_element = items[item].model_bytes_per_element;
    Fp32Instructions fp32;
    bool fp32_counted = true;
    for (std::size_t r = markers[2 * item] + 1; r < markers[2 * item + 1]; ++r) {
      profiled.dram_read_bytes += metric_bytes(rows[r], kDramReadMetric);
      profiled.dram_write_bytes += metric_bytes(rows[r], kDramWriteMetric);
      const std::optional<double> fadd = metric_count(rows[r], kFp32AddMetric);
      const std::optional<double> fmul = metric_count(rows[r], kFp32MulMetric);
      const std::optional<double> ffma = metric_count(rows[r], kFp32FmaMetric);
      if (fadd && fmul && ffma) {
        fp32.fadd += *fadd;
        fp32.fmul += *fmul;
        fp32.ffma += *ffma;
      } else {
        fp32_counted = false;
      }
      ++profiled.kernels;
    }
    if (fp32_counted && profiled.kernels > 0) {
      profiled.fp32 = fp32;
    }
    if (profiled.kernels == 0) {
      skipped.push_back(profiled.name);
    } else {
      cases.push_back(profiled);
    }
  }
  return cases;
}

NcuFailure classify_ncu_failure(const std::string& output, const std::string& how_it_ended) {
  if (output.find("ERR_NVGPUCTRPERM") != std::string::npos) {
    return {"counters-refused",
            "ncu was refused the GPU performance counters (ERR_NVGPUCTRPERM): the driver lets only "
            "administrators read them (its RmProfilingAdminOnly setting is 1). Run labrun profile as root, "
            "or have an administrator set the nvidia module option NVreg_RestrictProfilingToAdminUsers=0 "
            "and reload the driver. The timings were taken without counters."};
  }
  std::istringstream lines(output);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("==ERROR==", 0) == 0) {
      std::string detail = "ncu " + how_it_ended;
      detail += ": ";
      detail += line;
      return {"failed", detail};
    }
  }
  return {"failed", "ncu " + how_it_ended + " without an ==ERROR== line"};
}

}  // namespace labrun
