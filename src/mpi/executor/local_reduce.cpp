// Predefined operators in optcoll's own loop (see local_reduce.hpp).
#include "mpi/executor/local_reduce.hpp"

#include <type_traits>

namespace optcoll::mpi {
namespace {

enum class Fn : std::uint8_t { sum, prod, min, max, band, bor, bxor, land, lor, lxor };

template <class T, Fn F>
T apply(T a, T b) noexcept {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;  // wraps instead of overflowing
    if constexpr (F == Fn::sum) return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
    if constexpr (F == Fn::prod) return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
    if constexpr (F == Fn::band) return static_cast<T>(a & b);
    if constexpr (F == Fn::bor) return static_cast<T>(a | b);
    if constexpr (F == Fn::bxor) return static_cast<T>(a ^ b);
    if constexpr (F == Fn::land) return static_cast<T>((a != 0) && (b != 0));
    if constexpr (F == Fn::lor) return static_cast<T>((a != 0) || (b != 0));
    if constexpr (F == Fn::lxor) return static_cast<T>((a != 0) != (b != 0));
  } else {
    if constexpr (F == Fn::sum) return a + b;
    if constexpr (F == Fn::prod) return a * b;
  }
  if constexpr (F == Fn::min) return b < a ? b : a;
  if constexpr (F == Fn::max) return a < b ? b : a;
}

template <class T, Fn F>
void loop(const void* a, const void* b, void* dst, std::int64_t n) noexcept {
  const T* x = static_cast<const T*>(a);
  const T* y = static_cast<const T*>(b);
  T* d = static_cast<T*>(dst);
  for (std::int64_t i = 0; i < n; ++i) d[i] = apply<T, F>(x[i], y[i]);
}

template <class T>
LocalReduce integer(Fn f) noexcept {
  switch (f) {
    case Fn::sum:
      return loop<T, Fn::sum>;
    case Fn::prod:
      return loop<T, Fn::prod>;
    case Fn::min:  // unsigned: MPI's order (see local_reduce.hpp)
      return std::is_signed_v<T> ? loop<T, Fn::min> : nullptr;
    case Fn::max:
      return std::is_signed_v<T> ? loop<T, Fn::max> : nullptr;
    case Fn::band:
      return loop<T, Fn::band>;
    case Fn::bor:
      return loop<T, Fn::bor>;
    case Fn::bxor:
      return loop<T, Fn::bxor>;
    case Fn::land:
      return loop<T, Fn::land>;
    case Fn::lor:
      return loop<T, Fn::lor>;
    case Fn::lxor:
      return loop<T, Fn::lxor>;
  }
  return nullptr;
}

template <class T>
LocalReduce floating(Fn f) noexcept {
  if (f == Fn::sum) return loop<T, Fn::sum>;
  if (f == Fn::prod) return loop<T, Fn::prod>;
  return nullptr;
}

// The integer type of the C type's width and signedness.
template <class C>
using Fixed = std::conditional_t<
    std::is_signed_v<C>,
    std::conditional_t<sizeof(C) == 4, std::int32_t, std::conditional_t<sizeof(C) == 8, std::int64_t, C>>,
    std::conditional_t<sizeof(C) == 4, std::uint32_t, std::conditional_t<sizeof(C) == 8, std::uint64_t, C>>>;

}  // namespace

LocalReduce local_reduce(MPI_Datatype type, MPI_Op op) noexcept {
  Fn f{};
  if (op == MPI_SUM)
    f = Fn::sum;
  else if (op == MPI_PROD)
    f = Fn::prod;
  else if (op == MPI_MIN)
    f = Fn::min;
  else if (op == MPI_MAX)
    f = Fn::max;
  else if (op == MPI_BAND)
    f = Fn::band;
  else if (op == MPI_BOR)
    f = Fn::bor;
  else if (op == MPI_BXOR)
    f = Fn::bxor;
  else if (op == MPI_LAND)
    f = Fn::land;
  else if (op == MPI_LOR)
    f = Fn::lor;
  else if (op == MPI_LXOR)
    f = Fn::lxor;
  else
    return nullptr;
  if (type == MPI_INT || type == MPI_INT32_T) return integer<std::int32_t>(f);
  if (type == MPI_UNSIGNED || type == MPI_UINT32_T) return integer<std::uint32_t>(f);
  if (type == MPI_LONG) return integer<Fixed<long>>(f);
  if (type == MPI_UNSIGNED_LONG) return integer<Fixed<unsigned long>>(f);
  if (type == MPI_LONG_LONG || type == MPI_INT64_T) return integer<std::int64_t>(f);
  if (type == MPI_UNSIGNED_LONG_LONG || type == MPI_UINT64_T) return integer<std::uint64_t>(f);
  if (type == MPI_FLOAT) return floating<float>(f);
  if (type == MPI_DOUBLE) return floating<double>(f);
  return nullptr;
}

}  // namespace optcoll::mpi
