// The differential driver's datatypes, operators and buffer contents (see
// differential.hpp).
#include <cstdint>
#include <cstring>

#include "differential.hpp"

namespace optcoll::differential {
namespace {

constexpr std::int64_t kPrime = 1000003;  // modulus of the matrix product

template <class T>
T load(const unsigned char* p) {
  T x;
  std::memcpy(&x, p, sizeof(T));
  return x;
}
template <class T>
void store(unsigned char* p, T x) {
  std::memcpy(p, &x, sizeof(T));
}

// Element-wise sum of every data field, by the layout of *dt (commutative;
// integers wrap as unsigned, doubles hold small integers and stay exact).
void user_sum(void* in, void* inout, int* len, MPI_Datatype* dt) {
  const TypeDesc* t = Catalog::get().find(*dt);
  if (t == nullptr) MPI_Abort(MPI_COMM_WORLD, 3);
  const auto* a = static_cast<const unsigned char*>(in);
  auto* b = static_cast<unsigned char*>(inout);
  for (int i = 0; i < *len; ++i, a += t->extent, b += t->extent)
    for (const FieldAt& f : t->fields) {
      const unsigned char* x = a + f.offset;
      unsigned char* y = b + f.offset;
      switch (f.kind) {
        case Field::i32:
          store(y, load<std::uint32_t>(x) + load<std::uint32_t>(y));
          break;
        case Field::i64:
          store(y, load<std::uint64_t>(x) + load<std::uint64_t>(y));
          break;
        case Field::f64:
          store(y, load<double>(x) + load<double>(y));
          break;
        case Field::f32:
          store(y, load<float>(x) + load<float>(y));
          break;
        case Field::u8:
          *y = static_cast<unsigned char>(*x + *y);
          break;
      }
    }
}

// 2x2 matrix product mod kPrime, inout = in * inout: not commutative, so
// the result fixes the rank order of the combination.
void matrix_product(void* in, void* inout, int* len, MPI_Datatype*) {
  const auto* a = static_cast<const std::int32_t*>(in);
  auto* b = static_cast<std::int32_t*>(inout);
  for (int i = 0; i < *len; ++i, a += 4, b += 4) {
    const std::int64_t c[4] = {
        (std::int64_t{a[0]} * b[0] + std::int64_t{a[1]} * b[2]) % kPrime,
        (std::int64_t{a[0]} * b[1] + std::int64_t{a[1]} * b[3]) % kPrime,
        (std::int64_t{a[2]} * b[0] + std::int64_t{a[3]} * b[2]) % kPrime,
        (std::int64_t{a[2]} * b[1] + std::int64_t{a[3]} * b[3]) % kPrime,
    };
    for (int k = 0; k < 4; ++k) b[k] = static_cast<std::int32_t>(c[k]);
  }
}

MPI_Datatype committed(MPI_Datatype t) {
  MPI_Type_commit(&t);
  return t;
}

MPI_Datatype resized(MPI_Datatype t, std::int64_t extent) {
  MPI_Datatype r = MPI_DATATYPE_NULL;
  MPI_Type_create_resized(t, 0, extent, &r);
  MPI_Type_free(&t);
  return committed(r);
}

Catalog build() {
  Catalog c;
  auto add = [&](std::string name, MPI_Datatype t, std::int64_t extent, std::vector<FieldAt> fields, bool predefined,
                 bool pair = false) {
    bool real = false;
    for (const FieldAt& f : fields) real = real || f.kind == Field::f64 || f.kind == Field::f32;
    c.types.push_back({std::move(name), t, extent, std::move(fields), predefined, pair, real});
  };
  add("MPI_INT", MPI_INT, 4, {{0, Field::i32}}, true);
  add("MPI_INT64_T", MPI_INT64_T, 8, {{0, Field::i64}}, true);
  add("MPI_DOUBLE", MPI_DOUBLE, 8, {{0, Field::f64}}, true);
  add("MPI_UNSIGNED_CHAR", MPI_UNSIGNED_CHAR, 1, {{0, Field::u8}}, true);
  add("MPI_2INT", MPI_2INT, 8, {{0, Field::i32}, {4, Field::i32}}, true, true);
  MPI_Datatype t = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(3, MPI_INT, &t);
  add("contiguous(3,int)", committed(t), 12, {{0, Field::i32}, {4, Field::i32}, {8, Field::i32}}, false);
  // ints at 0 and 12 of every 20 bytes: holes at 4..12 and 16..20.
  MPI_Type_vector(2, 1, 3, MPI_INT, &t);
  add("vector(2,1,3,int)/20", resized(t, 20), 20, {{0, Field::i32}, {12, Field::i32}}, false);
  // doubles at 0, 16, 32 of every 48 bytes.
  MPI_Type_vector(3, 1, 2, MPI_DOUBLE, &t);
  add("vector(3,1,2,double)/48", resized(t, 48), 48, {{0, Field::f64}, {16, Field::f64}, {32, Field::f64}}, false);
  // A struct with gaps: int at 0, double at 8, unsigned char at 20; 32 bytes.
  {
    const int lens[3] = {1, 1, 1};
    const MPI_Aint disps[3] = {0, 8, 20};
    const MPI_Datatype kinds[3] = {MPI_INT, MPI_DOUBLE, MPI_UNSIGNED_CHAR};
    MPI_Type_create_struct(3, lens, disps, kinds, &t);
    add("struct{int@0,double@8,uchar@20}/32", resized(t, 32), 32, {{0, Field::i32}, {8, Field::f64}, {20, Field::u8}},
        false);
  }
  MPI_Type_contiguous(4, MPI_INT, &t);
  c.matrix_type = static_cast<int>(c.types.size());
  add("matrix2x2", committed(t), 16, {{0, Field::i32}, {4, Field::i32}, {8, Field::i32}, {12, Field::i32}}, false);
  c.drawn = c.types.size();
  c.float_type = static_cast<int>(c.types.size());
  add("MPI_FLOAT", MPI_FLOAT, 4, {{0, Field::f32}}, true);

  auto op = [&](std::string name, MPI_Op o, bool on_int, bool on_double) {
    OpDesc d;
    d.name = std::move(name);
    d.op = o;
    d.on_int = on_int;
    d.on_double = on_double;
    c.ops.push_back(d);
  };
  op("MPI_SUM", MPI_SUM, true, true);
  op("MPI_PROD", MPI_PROD, true, true);
  op("MPI_MAX", MPI_MAX, true, true);
  op("MPI_MIN", MPI_MIN, true, true);
  op("MPI_BAND", MPI_BAND, true, false);
  op("MPI_BOR", MPI_BOR, true, false);
  op("MPI_BXOR", MPI_BXOR, true, false);
  op("MPI_LAND", MPI_LAND, true, false);
  OpDesc loc;
  loc.name = "MPI_MAXLOC";
  loc.op = MPI_MAXLOC;
  loc.on_pair = true;
  c.ops.push_back(loc);
  loc.name = "MPI_MINLOC";
  loc.op = MPI_MINLOC;
  c.ops.push_back(loc);
  OpDesc sum;
  sum.name = "user_sum";
  MPI_Op_create(&user_sum, 1, &sum.op);
  sum.on_int = sum.on_double = sum.on_derived = true;
  c.ops.push_back(sum);
  OpDesc mat;
  mat.name = "matrix_product";
  MPI_Op_create(&matrix_product, 0, &mat.op);
  mat.commutative = false;
  mat.matrix_only = true;
  c.ops.push_back(mat);
  return c;
}

Catalog& instance() {
  static Catalog c = build();
  return c;
}

}  // namespace

const Catalog& Catalog::get() {
  return instance();
}

void Catalog::release() {
  for (TypeDesc& t : instance().types)
    if (!t.predefined) MPI_Type_free(&t.type);
  for (OpDesc& o : instance().ops)
    if (o.name == "user_sum" || o.name == "matrix_product") MPI_Op_free(&o.op);
}

const TypeDesc* Catalog::find(MPI_Datatype t) const {
  for (const TypeDesc& d : types)
    if (d.type == t) return &d;
  return nullptr;
}

bool op_applies(const OpDesc& op, const TypeDesc& t) {
  if (op.matrix_only) return &t == &Catalog::get().types[static_cast<std::size_t>(Catalog::get().matrix_type)];
  if (t.pair) return op.on_pair;
  if (!t.predefined) return op.on_derived;
  const Field k = t.fields.front().kind;
  return k == Field::f64 || k == Field::f32 ? op.on_double : op.on_int;
}

// Bytes hold 0..15: Open MPI 4.1.4's op/avx component adds 8- and 16-bit
// integers with saturation (200 + 100 = 255 as MPI_UNSIGNED_CHAR, in the
// vectorised part of a buffer only), so a wrapping sum would differ between
// any two ways of cutting the buffer, native MPI's included.
namespace {

// A real value from 64 random bits (fill()).
double real_value(std::uint64_t v) {
  const double u = static_cast<double>(v >> 11) * 0x1.0p-53;  // [0, 1)
  const double x = (v >> 1) % 4 == 0 ? 1e5 + u * 1e7 : 1e-3 + u;
  return (v & 1) != 0 ? -x : x;
}

}  // namespace

void fill(std::vector<unsigned char>& buf, const TypeDesc& t, std::int64_t count, std::uint64_t seed,
          std::uint64_t salt, bool real) {
  buf.assign(static_cast<std::size_t>(count * t.extent), 0);
  Rng r(mix(seed, salt));
  for (auto& byte : buf) byte = static_cast<unsigned char>(r.next());
  const bool matrix = t.name == "matrix2x2";
  for (std::int64_t i = 0; i < count; ++i)
    for (const FieldAt& f : t.fields) {
      unsigned char* at = buf.data() + i * t.extent + f.offset;
      const std::uint64_t v = r.next();
      switch (f.kind) {
        case Field::i32:
          store(at, matrix ? static_cast<std::int32_t>(v % kPrime) : static_cast<std::int32_t>(v % 101) - 50);
          break;
        case Field::i64:
          store(at, static_cast<std::int64_t>(v % 101) - 50);
          break;
        case Field::f64:  // products of 16 values in [-2, 2] are exact
          store(at, real ? real_value(v) : static_cast<double>(static_cast<int>(v % 5) - 2));
          break;
        case Field::f32:
          store(at, real ? static_cast<float>(real_value(v)) : static_cast<float>(static_cast<int>(v % 5) - 2));
          break;
        case Field::u8:  // sums of 16 ranks stay below 256: see below
          *at = static_cast<unsigned char>(v % 16);
          break;
      }
    }
}

}  // namespace optcoll::differential
