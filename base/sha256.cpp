#include "base/sha256.h"

#include <openssl/evp.h>

#include <array>
#include <fstream>
#include <memory>

#include "base/error.h"
#include "base/path_exists.h"

namespace polyarch {

namespace {

class Sha256 {
 public:
  Sha256() : context_(EVP_MD_CTX_new(), &EVP_MD_CTX_free) {
    if (!context_ || EVP_DigestInit_ex(context_.get(), EVP_sha256(), nullptr) != 1) {
      throw_runtime({}, "OpenSSL could not start a SHA-256 digest");
    }
  }

  void update(const char* bytes, std::size_t size) {
    if (EVP_DigestUpdate(context_.get(), bytes, size) != 1) {
      throw_runtime({}, "OpenSSL SHA-256 update failed");
    }
  }

  std::string hex() {
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    unsigned int size = 0;
    if (EVP_DigestFinal_ex(context_.get(), digest.data(), &size) != 1) {
      throw_runtime({}, "OpenSSL SHA-256 final failed");
    }
    static constexpr char kHexDigits[] = "0123456789abcdef";
    std::string text;
    for (unsigned int i = 0; i < size; ++i) {
      text += kHexDigits[digest[i] >> 4];
      text += kHexDigits[digest[i] & 0xF];
    }
    return text;
  }

 private:
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context_;
};

}  // namespace

std::string sha256_file_hex(const std::filesystem::path& path) {
  const SourceLocation where{path.string(), 0, 0, ""};
  if (!is_regular_file_path(path)) throw_bad_input(where, "file not found");
  std::ifstream in(path, std::ios::binary);
  if (!in.is_open()) throw_bad_input(where, "cannot open file");
  Sha256 digest;
  std::array<char, 1 << 16> buffer{};
  while (in) {
    in.read(buffer.data(), buffer.size());
    digest.update(buffer.data(), static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) throw_bad_input(where, "cannot read file");
  return digest.hex();
}

std::string sha256_hex(const std::string& bytes) {
  Sha256 digest;
  digest.update(bytes.data(), bytes.size());
  return digest.hex();
}

}  // namespace polyarch
