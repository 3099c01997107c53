#include "golden/hdf5_file.h"

#include <hdf5.h>

#include <algorithm>
#include <type_traits>
#include <utility>

namespace aclnn_check {

static_assert(std::is_same_v<hid_t, Hdf5Handle> && std::is_same_v<herr_t, int>,
              "Hdf5Id stands in for hid_t and herr_t");

namespace {

// HDF5 prints its error stack to stderr by default; the harness reports errors itself, once.
void SilenceHdf5() {
  static const bool silenced = [] {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    return true;
  }();
  (void)silenced;
}

Hdf5Id StringType(size_t size) {
  Hdf5Id type(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(type.get(), size);
  return type;
}

std::string ShapeText(const Dims& shape) { return shape.empty() ? "scalar" : FormatDims(shape); }

}  // namespace

Hdf5Id::~Hdf5Id() {
  if (id_ >= 0 && close_) close_(id_);
}

Hdf5Id::Hdf5Id(Hdf5Id&& other) noexcept
    : id_(std::exchange(other.id_, Hdf5Handle{-1})), close_(other.close_) {}

Hdf5Id& Hdf5Id::operator=(Hdf5Id&& other) noexcept {
  std::swap(id_, other.id_);
  std::swap(close_, other.close_);
  return *this;
}

std::string Hdf5Group::ChildPath(std::string_view name) const {
  return (path_ == "/" ? "/" : path_ + "/") + std::string(name);
}

void Hdf5Group::Fail(std::string_view child, const std::string& expected) const {
  throw InputError(*file_, child.empty() ? path_ : ChildPath(child), expected);
}

namespace {

herr_t CollectName(hid_t, const char* name, const H5L_info_t*, void* names) {
  static_cast<std::vector<std::string>*>(names)->emplace_back(name);
  return 0;
}

// Kind of a child object: H5I_GROUP, H5I_DATASET, or H5I_BADID when it cannot be opened.
H5I_type_t ChildKind(hid_t group, const std::string& name) {
  Hdf5Id object(H5Oopen(group, name.c_str(), H5P_DEFAULT), H5Oclose);
  return object.valid() ? H5Iget_type(object.get()) : H5I_BADID;
}

}  // namespace

// HDF5 1.10 keeps the links of a large group, and many attributes, in a fractal heap whose blocks
// carry no checksum, and frees memory it does not own when such a block is damaged. Golden files
// keep links and attributes in object headers, which are checksummed; anything else is refused
// before HDF5 reads it.
void Hdf5Group::RequireCompactStorage() const {
  H5G_info_t info{};
  if (H5Gget_info(id_.get(), &info) < 0) Fail("", "a readable group (its header is damaged)");
  if (info.storage_type == H5G_STORAGE_TYPE_DENSE) {
    Fail("", "a group with its links in its object header (compact storage); dense link storage is not read");
  }
#if H5_VERSION_GE(1, 12, 0)
  H5O_native_info_t object{};
  const herr_t status = H5Oget_native_info(id_.get(), &object, H5O_NATIVE_INFO_META_SIZE);
#else
  H5O_info_t object{};
  const herr_t status = H5Oget_info2(id_.get(), &object, H5O_INFO_META_SIZE);
#endif
  if (status < 0) Fail("", "a readable object header");
  if (object.meta_size.attr.heap_size != 0 || object.meta_size.attr.index_size != 0) {
    Fail("", "attributes in the object header (at most 8, each under 64 KiB); dense attribute storage is not read");
  }
}

std::vector<std::string> Hdf5Group::ChildGroups() const {
  RequireCompactStorage();
  std::vector<std::string> names;
  hsize_t index = 0;
  if (H5Literate(id_.get(), H5_INDEX_NAME, H5_ITER_INC, &index, CollectName, &names) < 0) {
    Fail("", "a readable group (its list of members is damaged)");
  }
  std::vector<std::string> groups;
  for (const std::string& name : names) {
    const H5I_type_t kind = ChildKind(id_.get(), name);
    if (kind == H5I_BADID) Fail(name, "a readable object (its header is damaged)");
    if (kind == H5I_GROUP) groups.push_back(name);
  }
  return groups;
}

std::vector<std::string> Hdf5Group::ChildDatasets() const {
  RequireCompactStorage();
  std::vector<std::string> names;
  hsize_t index = 0;
  if (H5Literate(id_.get(), H5_INDEX_NAME, H5_ITER_INC, &index, CollectName, &names) < 0) {
    Fail("", "a readable group (its list of members is damaged)");
  }
  std::vector<std::string> datasets;
  for (const std::string& name : names) {
    const H5I_type_t kind = ChildKind(id_.get(), name);
    if (kind == H5I_BADID) Fail(name, "a readable object (its header is damaged)");
    if (kind == H5I_DATASET) datasets.push_back(name);
  }
  return datasets;
}

bool Hdf5Group::HasChild(std::string_view name) const {
  const std::string child(name);
  return H5Lexists(id_.get(), child.c_str(), H5P_DEFAULT) > 0;
}

bool Hdf5Group::HasAttribute(std::string_view name) const {
  const std::string attribute(name);
  return H5Aexists(id_.get(), attribute.c_str()) > 0;
}

Hdf5Group Hdf5Group::OpenGroup(std::string_view name) const {
  const std::string child(name);
  if (!HasChild(name)) Fail(name, "a group (it is missing)");
  Hdf5Id group(H5Gopen2(id_.get(), child.c_str(), H5P_DEFAULT), H5Gclose);
  if (!group.valid()) Fail(name, "a group (it is not one, or its header is damaged)");
  Hdf5Group opened(file_, ChildPath(name), std::move(group));
  opened.RequireCompactStorage();
  return opened;
}

std::string Hdf5Group::ReadStringAttribute(std::string_view name) const {
  const std::string attribute_name(name);
  const std::string where = "attribute " + attribute_name;
  if (!HasAttribute(name)) Fail("", "a string " + where + " (it is missing)");
  Hdf5Id attribute(H5Aopen(id_.get(), attribute_name.c_str(), H5P_DEFAULT), H5Aclose);
  if (!attribute.valid()) Fail("", "a readable " + where);
  Hdf5Id type(H5Aget_type(attribute.get()), H5Tclose);
  Hdf5Id space(H5Aget_space(attribute.get()), H5Sclose);
  if (!type.valid() || !space.valid() || H5Tget_class(type.get()) != H5T_STRING) {
    Fail("", where + " to be a string");
  }
  if (H5Sget_simple_extent_npoints(space.get()) != 1) Fail("", where + " to be one string, not an array");
  // Variable-length strings live in HDF5's global heap, which has no checksum: HDF5 1.10 reads a
  // damaged heap entry out of bounds. Golden files hold fixed-length strings only.
  if (H5Tis_variable_str(type.get()) != 0) {
    Fail("", where + " to be a fixed-length string (variable-length strings are not read)");
  }
  const size_t size = H5Tget_size(type.get());
  constexpr size_t kMaxAttributeBytes = 16u << 20;
  if (size == 0 || size > kMaxAttributeBytes) Fail("", where + " of at most 16 MiB");
  Hdf5Id memory_type = StringType(size);
  H5Tset_strpad(memory_type.get(), H5T_STR_NULLPAD);  // all `size` bytes, no terminator taken
  H5Tset_cset(memory_type.get(), H5Tget_cset(type.get()) == H5T_CSET_UTF8 ? H5T_CSET_UTF8 : H5T_CSET_ASCII);
  std::string value(size, '\0');
  if (H5Aread(attribute.get(), memory_type.get(), value.data()) < 0) {
    Fail("", where + " to be readable (its data is damaged)");
  }
  value.resize(value.find('\0') == std::string::npos ? size : value.find('\0'));
  return value;
}

Hdf5Array Hdf5Group::ReadDataset(std::string_view name) const {
  const std::string child(name);
  if (!HasChild(name)) Fail(name, "a numeric dataset (it is missing)");
  Hdf5Id dataset(H5Dopen2(id_.get(), child.c_str(), H5P_DEFAULT), H5Dclose);
  if (!dataset.valid()) Fail(name, "a numeric dataset (it is not one, or its header is damaged)");
  Hdf5Id space(H5Dget_space(dataset.get()), H5Sclose);
  Hdf5Id type(H5Dget_type(dataset.get()), H5Tclose);
  if (!space.valid() || !type.valid()) Fail(name, "a dataset with a readable shape and type");
  const H5T_class_t type_class = H5Tget_class(type.get());
  if (type_class != H5T_FLOAT && type_class != H5T_INTEGER) {
    Fail(name, "a floating-point or integer dataset");
  }
  const H5S_class_t space_class = H5Sget_simple_extent_type(space.get());
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if ((space_class != H5S_SIMPLE && space_class != H5S_SCALAR) || rank < 0 ||
      rank > kMaxShapeRank) {
    Fail(name, "a scalar or a dataset of rank at most " + std::to_string(kMaxShapeRank));
  }
  hsize_t dims[kMaxShapeRank] = {};
  if (rank > 0 && H5Sget_simple_extent_dims(space.get(), dims, nullptr) != rank) {
    Fail(name, "a dataset with readable dimensions");
  }
  Hdf5Array array;
  uint64_t elements = 1;
  for (int d = 0; d < rank; ++d) {
    if (dims[d] > kMaxDatasetElements || (dims[d] > 0 && elements > kMaxDatasetElements / dims[d])) {
      Fail(name, "at most 2^28 elements");
    }
    elements *= dims[d];
    array.shape.push_back(static_cast<int64_t>(dims[d]));
  }
  array.values.resize(elements);
  if (elements > 0 && H5Dread(dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                              array.values.data()) < 0) {
    Fail(name, "readable data of shape " + ShapeText(array.shape) + " (it is truncated or damaged)");
  }
  return array;
}

Hdf5Group Hdf5Group::CreateGroup(std::string_view name) const {
  const std::string child(name);
  // Links stay in the group's checksummed object header however many there are (see
  // RequireCompactStorage); HDF5's limit is 65535.
  Hdf5Id properties(H5Pcreate(H5P_GROUP_CREATE), H5Pclose);
  H5Pset_link_phase_change(properties.get(), kMaxGroupMembers, kMaxGroupMembers);
  Hdf5Id group(H5Gcreate2(id_.get(), child.c_str(), H5P_DEFAULT, properties.get(), H5P_DEFAULT), H5Gclose);
  if (!group.valid()) Fail(name, "a new group (could not create it; does it exist already?)");
  return Hdf5Group(file_, ChildPath(name), std::move(group));
}

void Hdf5Group::WriteStringAttribute(std::string_view name, std::string_view value) const {
  const std::string attribute_name(name);
  const std::string text(value);
  // Fixed-length, NUL-padded: see ReadStringAttribute.
  Hdf5Id type = StringType(std::max<size_t>(1, text.size()));
  H5Tset_strpad(type.get(), H5T_STR_NULLPAD);
  H5Tset_cset(type.get(), H5T_CSET_UTF8);
  Hdf5Id space(H5Screate(H5S_SCALAR), H5Sclose);
  Hdf5Id attribute(H5Acreate2(id_.get(), attribute_name.c_str(), type.get(), space.get(), H5P_DEFAULT,
                              H5P_DEFAULT),
                   H5Aclose);
  std::string padded = text;
  padded.resize(std::max<size_t>(1, text.size()), '\0');
  if (!attribute.valid() || H5Awrite(attribute.get(), type.get(), padded.data()) < 0) {
    Fail("", "to write attribute " + attribute_name);
  }
}

void Hdf5Group::WriteDataset(std::string_view name, const Dims& shape,
                             const std::vector<double>& values) const {
  const std::string child(name);
  std::vector<hsize_t> dims(shape.begin(), shape.end());
  Hdf5Id space(shape.empty() ? H5Screate(H5S_SCALAR)
                             : H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr),
               H5Sclose);
  Hdf5Id properties(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  if (!shape.empty() && !values.empty()) {
    // One chunk per dataset: the tensors are small, and shuffle + deflate halves float64 data.
    H5Pset_chunk(properties.get(), static_cast<int>(dims.size()), dims.data());
    H5Pset_shuffle(properties.get());
    H5Pset_deflate(properties.get(), 6);
    H5Pset_fletcher32(properties.get());  // a damaged chunk is an error, not other numbers
  }
  Hdf5Id dataset(H5Dcreate2(id_.get(), child.c_str(), H5T_IEEE_F64LE, space.get(), H5P_DEFAULT,
                            properties.get(), H5P_DEFAULT),
                 H5Dclose);
  if (!space.valid() || !dataset.valid() ||
      (!values.empty() && H5Dwrite(dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                                   values.data()) < 0)) {
    Fail(name, "to write dataset of shape " + ShapeText(shape));
  }
}

namespace {

// HDF5 1.10 does not survive every damaged file: metadata without checksums (superblock versions
// 0 and 1, as the library writes by default) is interpreted as found. Files written with the
// newest format carry checksums, and HDF5 rejects a damaged piece before using it.
void RequireChecksummedMetadata(hid_t file, const std::string& name) {
  H5F_info2_t info{};
  if (H5Fget_info2(file, &info) < 0) throw InputError(name, "/", "a readable HDF5 superblock");
  if (info.super.version < 2) {
    throw InputError(name, "/",
                     "an HDF5 file with checksummed metadata (superblock version 2 or later: written with "
                     "libver latest, as aclnn-check and tools/gen_golden.py do); found version " +
                         std::to_string(info.super.version));
  }
}

}  // namespace

Hdf5File Hdf5File::Open(const std::string& path) {
  SilenceHdf5();
  auto name = std::make_shared<const std::string>(path);
  if (H5Fis_hdf5(path.c_str()) <= 0) throw InputError(path, "/", "an HDF5 file (no HDF5 signature)");
  Hdf5Id file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!file.valid()) throw InputError(path, "/", "a readable HDF5 file (it is truncated or damaged)");
  RequireChecksummedMetadata(file.get(), path);
  return Hdf5File(std::move(name), std::move(file));
}

Hdf5File Hdf5File::Create(const std::string& path) {
  SilenceHdf5();
  auto name = std::make_shared<const std::string>(path);
  // The newest file format checksums every piece of metadata (superblock, object headers,
  // chunk indices), so the reader can require it (RequireChecksummedMetadata).
  Hdf5Id access(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  H5Pset_libver_bounds(access.get(), H5F_LIBVER_LATEST, H5F_LIBVER_LATEST);
  Hdf5Id file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access.get()), H5Fclose);
  if (!file.valid()) throw InputError(path, "/", "a writable place for a new HDF5 file");
  return Hdf5File(std::move(name), std::move(file));
}

Hdf5File Hdf5File::OpenImage(std::string_view bytes, const std::string& name) {
  SilenceHdf5();
  auto shared_name = std::make_shared<const std::string>(name);
  // The core driver over a copy of the bytes, never written back anywhere.
  Hdf5Id access(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  if (H5Pset_fapl_core(access.get(), 1 << 16, 0) < 0 ||
      H5Pset_file_image(access.get(), const_cast<char*>(bytes.data()), bytes.size()) < 0) {
    throw InputError(name, "/", "an HDF5 file image HDF5 can take");
  }
  // The core driver refuses an image whose name is an existing file; this one names none.
  Hdf5Id file(H5Fopen("<aclnn-check in-memory HDF5 image>", H5F_ACC_RDONLY, access.get()), H5Fclose);
  if (!file.valid()) throw InputError(name, "/", "a readable HDF5 file (it is truncated or damaged)");
  RequireChecksummedMetadata(file.get(), name);
  return Hdf5File(std::move(shared_name), std::move(file));
}

Hdf5Group Hdf5File::Root() const {
  Hdf5Id root(H5Gopen2(id_.get(), "/", H5P_DEFAULT), H5Gclose);
  if (!root.valid()) throw InputError(*name_, "/", "a readable root group");
  Hdf5Group group(name_, "/", std::move(root));
  group.RequireCompactStorage();
  return group;
}

}  // namespace aclnn_check
