#include "timeline/cupti_tracer.hpp"

#include <cupti_activity.h>
#include <cupti_callbacks.h>
#include <cupti_result.h>
#include <cupti_version.h>
#include <cxxabi.h>
#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <stdexcept>

namespace labrun {

namespace {

// CUPTI hands full buffers to a callback of its own threads; the events are kept here until stop().
struct Collected {
  std::mutex mutex;
  std::vector<TraceEvent> events;
  std::uint64_t dropped = 0;
  bool in_use = false;  // one tracer at a time
};

Collected& collected() {
  static Collected instance;
  return instance;
}

constexpr std::size_t kBufferBytes = std::size_t{8} << 20;
constexpr std::size_t kBufferAlignment = 8;

const CuptiTracer::Api* g_api = nullptr;  // the tracer that registered the callbacks

}  // namespace

struct CuptiTracer::Api {
  void* handle = nullptr;
  std::string library;
  decltype(&cuptiActivityRegisterCallbacks) register_callbacks = nullptr;
  decltype(&cuptiActivityEnable) enable = nullptr;
  decltype(&cuptiActivityDisable) disable = nullptr;
  decltype(&cuptiActivityFlushAll) flush_all = nullptr;
  decltype(&cuptiActivityGetNextRecord) next_record = nullptr;
  decltype(&cuptiGetTimestamp) timestamp = nullptr;
  decltype(&cuptiGetResultString) result_string = nullptr;
  decltype(&cuptiGetCallbackName) callback_name = nullptr;
  decltype(&cuptiActivityGetNumDroppedRecords) dropped_records = nullptr;
  decltype(&cuptiGetVersion) version = nullptr;

  void check(CUptiResult result, const char* what) const {
    if (result == CUPTI_SUCCESS) {
      return;
    }
    const char* text = nullptr;
    if (result_string == nullptr || result_string(result, &text) != CUPTI_SUCCESS || text == nullptr) {
      text = "unknown CUPTI error";
    }
    throw TracerUnavailable(std::string("CUPTI refused ") + what + ": " + text);
  }
};

namespace {

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(kBufferAlignment, kBufferBytes));
  *size = *buffer == nullptr ? 0 : kBufferBytes;
  *max_records = 0;  // as many as fit
}

std::string runtime_call_name(const CuptiTracer::Api& api, CUpti_CallbackId id) {
  const char* name = nullptr;
  if (api.callback_name != nullptr &&
      api.callback_name(CUPTI_CB_DOMAIN_RUNTIME_API, id, &name) == CUPTI_SUCCESS && name != nullptr) {
    std::string text(name);
    // CUPTI names the versioned entry point ("cudaLaunchKernel_v7000"); the API's own name is kept.
    if (const std::size_t version = text.find("_v");
        version != std::string::npos &&
        text.find_first_not_of("0123456789", version + 2) == std::string::npos) {
      text.resize(version);
    }
    return text;
  }
  return "runtime call " + std::to_string(id);
}

// A kernel's name as its source spells it ("day48::(anonymous namespace)::do_nothing()"); the
// symbol as CUPTI gave it when it does not demangle (extern "C" kernels have plain names).
std::string kernel_name(const char* symbol) {
  if (symbol == nullptr) {
    return "kernel";
  }
  int status = 0;
  char* demangled = abi::__cxa_demangle(symbol, nullptr, nullptr, &status);
  std::string name = status == 0 && demangled != nullptr ? demangled : symbol;
  std::free(demangled);
  return name;
}

const char* memcpy_kind_name(std::uint8_t kind) {
  switch (kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD: return "memcpy HtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH: return "memcpy DtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD: return "memcpy DtoD";
    default: return "memcpy";
  }
}

void CUPTIAPI buffer_completed(CUcontext /*context*/, uint32_t /*stream*/, uint8_t* buffer, size_t /*size*/,
                               size_t valid) {
  std::vector<TraceEvent> events;
  if (g_api != nullptr && valid > 0) {
    CUpti_Activity* record = nullptr;
    while (g_api->next_record(buffer, valid, &record) == CUPTI_SUCCESS) {
      TraceEvent event;
      switch (record->kind) {
        case CUPTI_ACTIVITY_KIND_KERNEL:
        case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
          const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
          event = {TraceKind::kKernel, kernel_name(k->name), k->start, k->end,
                   k->streamId,        k->correlationId,     0};
          break;
        }
        case CUPTI_ACTIVITY_KIND_MEMCPY: {
          const auto* m = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
          event = {TraceKind::kMemcpy,
                   memcpy_kind_name(m->copyKind),
                   m->start,
                   m->end,
                   m->streamId,
                   m->correlationId,
                   m->bytes};
          break;
        }
        case CUPTI_ACTIVITY_KIND_MEMSET: {
          const auto* m = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
          event = {TraceKind::kMemset, "memset", m->start, m->end, m->streamId, m->correlationId, m->bytes};
          break;
        }
        case CUPTI_ACTIVITY_KIND_RUNTIME: {
          const auto* a = reinterpret_cast<const CUpti_ActivityAPI*>(record);
          event = {TraceKind::kRuntimeCall,
                   runtime_call_name(*g_api, a->cbid),
                   a->start,
                   a->end,
                   a->threadId,
                   a->correlationId,
                   0};
          break;
        }
        default: continue;
      }
      events.push_back(std::move(event));
    }
  }
  std::free(buffer);
  Collected& store = collected();
  const std::lock_guard<std::mutex> lock(store.mutex);
  store.events.insert(store.events.end(), std::make_move_iterator(events.begin()),
                      std::make_move_iterator(events.end()));
}

constexpr CUpti_ActivityKind kKinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                         CUPTI_ACTIVITY_KIND_MEMSET, CUPTI_ACTIVITY_KIND_RUNTIME};

template <typename Function>
void resolve(void* handle, const char* name, Function& function) {
  function = reinterpret_cast<Function>(dlsym(handle, name));
  if (function == nullptr) {
    throw TracerUnavailable(std::string("libcupti has no ") + name + " (a CUPTI older than CUDA 12?)");
  }
}

}  // namespace

CuptiTracer::CuptiTracer() : api_(std::make_unique<Api>()) {
  {
    Collected& store = collected();
    const std::lock_guard<std::mutex> lock(store.mutex);
    if (store.in_use) {
      throw TracerUnavailable("a CUPTI tracer is already recording in this process");
    }
    store.in_use = true;
  }
  std::vector<std::string> candidates{"libcupti.so.13", "libcupti.so"};
#ifdef LABRUN_CUPTI_LIBRARY_DIR
  candidates.push_back(std::string(LABRUN_CUPTI_LIBRARY_DIR) + "/libcupti.so");
#endif
  if (const char* chosen = std::getenv("LABRUN_CUPTI"); chosen != nullptr && *chosen != '\0') {
    candidates = {chosen};  // the user's libcupti, and no other
  }
  std::string tried;
  for (const std::string& candidate : candidates) {
    api_->handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (api_->handle != nullptr) {
      api_->library = candidate;
      break;
    }
    tried += (tried.empty() ? "" : ", ") + candidate;
  }
  try {
    if (api_->handle == nullptr) {
      throw TracerUnavailable("libcupti (the CUDA Toolkit's CUPTI) was not found (tried " + tried +
                              "); install it or add its folder to LD_LIBRARY_PATH");
    }
    resolve(api_->handle, "cuptiActivityRegisterCallbacks", api_->register_callbacks);
    resolve(api_->handle, "cuptiActivityEnable", api_->enable);
    resolve(api_->handle, "cuptiActivityDisable", api_->disable);
    resolve(api_->handle, "cuptiActivityFlushAll", api_->flush_all);
    resolve(api_->handle, "cuptiActivityGetNextRecord", api_->next_record);
    resolve(api_->handle, "cuptiGetTimestamp", api_->timestamp);
    resolve(api_->handle, "cuptiGetResultString", api_->result_string);
    resolve(api_->handle, "cuptiGetCallbackName", api_->callback_name);
    resolve(api_->handle, "cuptiActivityGetNumDroppedRecords", api_->dropped_records);
    resolve(api_->handle, "cuptiGetVersion", api_->version);
    // Records are read with this build's structures (cupti_activity.h): the library must be of the
    // same CUDA major version, and no older than the headers.
    std::uint32_t version = 0;
    api_->check(api_->version(&version), "its version");
    if (version / 10000 != CUPTI_API_VERSION / 10000 || version < CUPTI_API_VERSION) {
      throw TracerUnavailable(api_->library + " is CUPTI API " + std::to_string(version) +
                              "; labrun was built with " + std::to_string(CUPTI_API_VERSION) +
                              " and reads only its records");
    }
    g_api = api_.get();
    api_->check(api_->register_callbacks(buffer_requested, buffer_completed), "its activity buffers");
  } catch (...) {
    g_api = nullptr;
    if (api_->handle != nullptr) {
      dlclose(api_->handle);
    }
    const std::lock_guard<std::mutex> lock(collected().mutex);
    collected().in_use = false;
    throw;
  }
}

CuptiTracer::~CuptiTracer() {
  for (const CUpti_ActivityKind kind : kKinds) {
    api_->disable(kind);
  }
  api_->flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  // libcupti stays loaded: CUPTI keeps its callbacks in the process until it ends.
  Collected& store = collected();
  const std::lock_guard<std::mutex> lock(store.mutex);
  store.events.clear();
  store.in_use = false;
}

void CuptiTracer::start() {
  {
    Collected& store = collected();
    const std::lock_guard<std::mutex> lock(store.mutex);
    store.events.clear();
    store.dropped = 0;
  }
  for (const CUpti_ActivityKind kind : kKinds) {
    api_->check(api_->enable(kind), "to record activity");
  }
}

std::vector<TraceEvent> CuptiTracer::stop(std::uint64_t& dropped) {
  for (const CUpti_ActivityKind kind : kKinds) {
    api_->check(api_->disable(kind), "to stop recording");
  }
  api_->check(api_->flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), "to flush its buffers");
  size_t lost = 0;
  dropped = api_->dropped_records(nullptr, 0, &lost) == CUPTI_SUCCESS ? lost : 0;
  Collected& store = collected();
  const std::lock_guard<std::mutex> lock(store.mutex);
  std::vector<TraceEvent> events = std::move(store.events);
  store.events.clear();
  return events;
}

std::uint64_t CuptiTracer::now_ns() const {
  std::uint64_t now = 0;
  api_->check(api_->timestamp(&now), "a timestamp");
  return now;
}

const std::string& CuptiTracer::library() const {
  return api_->library;
}

}  // namespace labrun
