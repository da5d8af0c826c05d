// The global allocation functions, replaced to count (heap_counter.hpp). Each block carries its
// size in a header as wide as its alignment, so delete can subtract it whatever form of delete
// (sized or not, aligned or not) releases it.

#include "heap_counter.hpp"

#include <atomic>
#include <cstdlib>
#include <new>

namespace {

std::atomic<std::size_t> live{0};
std::atomic<std::size_t> peak{0};
std::atomic<std::size_t> allocated{0};
std::atomic<std::size_t> count{0};
// Allocations still allowed while a failing_after scope lives; -1 when none does.
std::atomic<long long> allowed_allocations{-1};
std::atomic<std::size_t> refused_allocations{0};

// Whether this allocation is one a failing_after scope refuses.
bool refuse_allocation() noexcept {
  long long left = allowed_allocations.load();
  while (left >= 0) {
    if (left == 0) {
      ++refused_allocations;
      return true;
    }
    if (allowed_allocations.compare_exchange_weak(left, left - 1)) return false;
  }
  return false;
}

void* counted_allocate(std::size_t size, std::size_t alignment) {
  if (refuse_allocation()) throw std::bad_alloc();
  const std::size_t header = alignment < 16 ? 16 : alignment;
  void* raw = std::aligned_alloc(header, (header + size + header - 1) / header * header);
  if (raw == nullptr) throw std::bad_alloc();
  auto* base = static_cast<unsigned char*>(raw);
  *reinterpret_cast<std::size_t*>(base) = size;
  // The header's width is stored just before the user pointer, where delete finds it.
  *reinterpret_cast<std::size_t*>(base + header - sizeof(std::size_t)) = header;
  allocated += size;
  ++count;
  const std::size_t now = live += size;
  std::size_t seen = peak.load();
  while (now > seen && !peak.compare_exchange_weak(seen, now)) {
  }
  return base + header;
}

void* counted_allocate_nothrow(std::size_t size, std::size_t alignment) noexcept {
  try {
    return counted_allocate(size, alignment);
  } catch (...) {
    return nullptr;
  }
}

void counted_free(void* p) noexcept {
  if (p == nullptr) return;
  auto* user = static_cast<unsigned char*>(p);
  const std::size_t header = *reinterpret_cast<std::size_t*>(user - sizeof(std::size_t));
  unsigned char* base = user - header;
  live -= *reinterpret_cast<std::size_t*>(base);
  std::free(base);
}

}  // namespace

namespace bsongen::test::heap {

std::size_t live_bytes() noexcept { return live.load(); }
std::size_t peak_bytes() noexcept { return peak.load(); }
std::size_t allocated_bytes() noexcept { return allocated.load(); }
std::size_t allocations() noexcept { return count.load(); }
void reset_peak() noexcept { peak = live.load(); }

failing_after::failing_after(std::size_t allowed) noexcept {
  refused_allocations = 0;
  allowed_allocations = static_cast<long long>(allowed);
}
failing_after::~failing_after() { allowed_allocations = -1; }
std::size_t failing_after::refused() const noexcept { return refused_allocations.load(); }

}  // namespace bsongen::test::heap

void* operator new(std::size_t size) { return counted_allocate(size, 16); }
void* operator new[](std::size_t size) { return counted_allocate(size, 16); }
void* operator new(std::size_t size, std::align_val_t a) {
  return counted_allocate(size, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t size, std::align_val_t a) {
  return counted_allocate(size, static_cast<std::size_t>(a));
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  return counted_allocate_nothrow(size, 16);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return counted_allocate_nothrow(size, 16);
}
void* operator new(std::size_t size, std::align_val_t a, const std::nothrow_t&) noexcept {
  return counted_allocate_nothrow(size, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t size, std::align_val_t a, const std::nothrow_t&) noexcept {
  return counted_allocate_nothrow(size, static_cast<std::size_t>(a));
}
void operator delete(void* p) noexcept { counted_free(p); }
void operator delete[](void* p) noexcept { counted_free(p); }
void operator delete(void* p, std::size_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::size_t) noexcept { counted_free(p); }
void operator delete(void* p, std::align_val_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { counted_free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { counted_free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { counted_free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { counted_free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { counted_free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  counted_free(p);
}
