// The parts of OpenSSL's libcrypto (3.x) that SessionService uses: digests, the system CSPRNG,
// public-key import through OSSL_PARAM, private keys in PKCS #8, and RSA/ECDSA signatures.
#ifndef SESSION_SERVICE_CLIBCRYPTO_SHIM_H
#define SESSION_SERVICE_CLIBCRYPTO_SHIM_H

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

// EVP_PKEY_PUBLIC_KEY is a composite macro that Swift cannot import.
static inline int clibcrypto_selection_public_key(void) { return EVP_PKEY_PUBLIC_KEY; }

// Names that libcrypto keeps pointers to (OSSL_PARAM keys, key-type names held by a context)
// must outlive the call, so they come from static C storage rather than temporary Swift strings.
static inline const char *clibcrypto_key_type_rsa(void) { return "RSA"; }
static inline const char *clibcrypto_key_type_ec(void) { return "EC"; }
static inline const char *clibcrypto_param_rsa_n(void) { return OSSL_PKEY_PARAM_RSA_N; }
static inline const char *clibcrypto_param_rsa_e(void) { return OSSL_PKEY_PARAM_RSA_E; }
static inline const char *clibcrypto_param_group(void) { return OSSL_PKEY_PARAM_GROUP_NAME; }
static inline const char *clibcrypto_param_public_key(void) { return OSSL_PKEY_PARAM_PUB_KEY; }
static inline const char *clibcrypto_curve_p256(void) { return SN_X9_62_prime256v1; }

#endif
