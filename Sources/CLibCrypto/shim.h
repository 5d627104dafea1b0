// The parts of OpenSSL's libcrypto (3.x) that SessionService uses: digests, the system CSPRNG,
// public-key import through OSSL_PARAM, private keys in PKCS #8, RSA/ECDSA signatures, and
// AES-256-GCM for the sealed pending sign-ins.
//
// libcrypto is loaded at run time (dlopen of libcrypto.so.3), not linked: building needs no
// OpenSSL headers and no -dev package, and a machine without it gets a clear cryptoFailure
// instead of a program that does not start. Only OpenSSL 3 is supported: the key import goes
// through OSSL_PARAM and EVP_PKEY_fromdata, which OpenSSL 1.1 (end of life since 2023) lacks, so
// on a system with only libcrypto.so.1.1 the library is reported missing rather than half used.
// The declarations below transcribe OpenSSL 3's stable ABI (the same opaque type names, the
// functions under their own names); Tests/ABI/crypto-abi-check.c compares each of them with the
// real headers in CI.
#ifndef SESSION_SERVICE_CLIBCRYPTO_SHIM_H
#define SESSION_SERVICE_CLIBCRYPTO_SHIM_H

#include <dlfcn.h>
#include "../CLibLoader/system_library.h"
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

/// OpenSSL's opaque types (openssl/types.h and ec.h), which Swift sees as OpaquePointer.
typedef struct bignum_st BIGNUM;
typedef struct evp_md_st EVP_MD;
typedef struct evp_md_ctx_st EVP_MD_CTX;
typedef struct evp_pkey_st EVP_PKEY;
typedef struct evp_pkey_ctx_st EVP_PKEY_CTX;
typedef struct pkcs8_priv_key_info_st PKCS8_PRIV_KEY_INFO;
typedef struct engine_st ENGINE;
typedef struct ossl_lib_ctx_st OSSL_LIB_CTX;
typedef struct ossl_param_st OSSL_PARAM;
typedef struct ossl_param_bld_st OSSL_PARAM_BLD;
typedef struct ECDSA_SIG_st ECDSA_SIG;
typedef struct evp_cipher_st EVP_CIPHER;
typedef struct evp_cipher_ctx_st EVP_CIPHER_CTX;
typedef struct ossl_init_settings_st OPENSSL_INIT_SETTINGS;

/// Whether libcrypto could be used.
enum clibcrypto_status { CLIBCRYPTO_LOADED = 0, CLIBCRYPTO_NOT_LOADED = 1, CLIBCRYPTO_NO_LIBRARY = 2, CLIBCRYPTO_NO_SYMBOL = 3 };

/// The functions used, each under its own name, found in libcrypto.so.3.
typedef struct {
    int status;                  // a clibcrypto_status
    const char *missing_symbol;  // the function the library lacks (CLIBCRYPTO_NO_SYMBOL)
    int (*EVP_Digest)(const void *data, size_t count, unsigned char *md, unsigned int *size, const EVP_MD *type, ENGINE *impl);
    const EVP_MD *(*EVP_sha256)(void);
    int (*RAND_bytes)(unsigned char *buf, int num);
    void (*ERR_clear_error)(void);
    BIGNUM *(*BN_bin2bn)(const unsigned char *s, int len, BIGNUM *ret);
    int (*BN_bn2binpad)(const BIGNUM *a, unsigned char *to, int tolen);
    int (*BN_num_bits)(const BIGNUM *a);
    void (*BN_free)(BIGNUM *a);
    OSSL_PARAM_BLD *(*OSSL_PARAM_BLD_new)(void);
    void (*OSSL_PARAM_BLD_free)(OSSL_PARAM_BLD *bld);
    int (*OSSL_PARAM_BLD_push_BN)(OSSL_PARAM_BLD *bld, const char *key, const BIGNUM *bn);
    int (*OSSL_PARAM_BLD_push_utf8_string)(OSSL_PARAM_BLD *bld, const char *key, const char *buf, size_t bsize);
    int (*OSSL_PARAM_BLD_push_octet_string)(OSSL_PARAM_BLD *bld, const char *key, const void *buf, size_t bsize);
    OSSL_PARAM *(*OSSL_PARAM_BLD_to_param)(OSSL_PARAM_BLD *bld);
    void (*OSSL_PARAM_free)(OSSL_PARAM *p);
    EVP_PKEY_CTX *(*EVP_PKEY_CTX_new_from_name)(OSSL_LIB_CTX *libctx, const char *name, const char *propquery);
    void (*EVP_PKEY_CTX_free)(EVP_PKEY_CTX *ctx);
    int (*EVP_PKEY_fromdata_init)(EVP_PKEY_CTX *ctx);
    int (*EVP_PKEY_fromdata)(EVP_PKEY_CTX *ctx, EVP_PKEY **ppkey, int selection, OSSL_PARAM *param);
    int (*EVP_PKEY_keygen_init)(EVP_PKEY_CTX *ctx);
    int (*EVP_PKEY_CTX_set_rsa_keygen_bits)(EVP_PKEY_CTX *ctx, int bits);
    int (*EVP_PKEY_CTX_set_group_name)(EVP_PKEY_CTX *ctx, const char *name);
    int (*EVP_PKEY_generate)(EVP_PKEY_CTX *ctx, EVP_PKEY **ppkey);
    void (*EVP_PKEY_free)(EVP_PKEY *pkey);
    int (*EVP_PKEY_get_bn_param)(const EVP_PKEY *pkey, const char *key_name, BIGNUM **bn);
    EVP_PKEY *(*d2i_AutoPrivateKey)(EVP_PKEY **a, const unsigned char **pp, long length);
    PKCS8_PRIV_KEY_INFO *(*EVP_PKEY2PKCS8)(const EVP_PKEY *pkey);
    int (*i2d_PKCS8_PRIV_KEY_INFO)(const PKCS8_PRIV_KEY_INFO *a, unsigned char **out);
    void (*PKCS8_PRIV_KEY_INFO_free)(PKCS8_PRIV_KEY_INFO *a);
    EVP_MD_CTX *(*EVP_MD_CTX_new)(void);
    void (*EVP_MD_CTX_free)(EVP_MD_CTX *ctx);
    int (*EVP_DigestSignInit)(EVP_MD_CTX *ctx, EVP_PKEY_CTX **pctx, const EVP_MD *type, ENGINE *e, EVP_PKEY *pkey);
    int (*EVP_DigestSign)(EVP_MD_CTX *ctx, unsigned char *sigret, size_t *siglen, const unsigned char *tbs, size_t tbslen);
    int (*EVP_DigestVerifyInit)(EVP_MD_CTX *ctx, EVP_PKEY_CTX **pctx, const EVP_MD *type, ENGINE *e, EVP_PKEY *pkey);
    int (*EVP_DigestVerify)(EVP_MD_CTX *ctx, const unsigned char *sigret, size_t siglen, const unsigned char *tbs, size_t tbslen);
    ECDSA_SIG *(*ECDSA_SIG_new)(void);
    void (*ECDSA_SIG_free)(ECDSA_SIG *sig);
    int (*ECDSA_SIG_set0)(ECDSA_SIG *sig, BIGNUM *r, BIGNUM *s);
    void (*ECDSA_SIG_get0)(const ECDSA_SIG *sig, const BIGNUM **pr, const BIGNUM **ps);
    ECDSA_SIG *(*d2i_ECDSA_SIG)(ECDSA_SIG **a, const unsigned char **in, long len);
    int (*i2d_ECDSA_SIG)(const ECDSA_SIG *a, unsigned char **out);
    const EVP_CIPHER *(*EVP_aes_256_gcm)(void);
    EVP_CIPHER_CTX *(*EVP_CIPHER_CTX_new)(void);
    void (*EVP_CIPHER_CTX_free)(EVP_CIPHER_CTX *ctx);
    int (*EVP_CIPHER_CTX_ctrl)(EVP_CIPHER_CTX *ctx, int type, int arg, void *ptr);
    int (*EVP_EncryptInit_ex)(EVP_CIPHER_CTX *ctx, const EVP_CIPHER *cipher, ENGINE *impl, const unsigned char *key, const unsigned char *iv);
    int (*EVP_EncryptUpdate)(EVP_CIPHER_CTX *ctx, unsigned char *out, int *outl, const unsigned char *in, int inl);
    int (*EVP_EncryptFinal_ex)(EVP_CIPHER_CTX *ctx, unsigned char *out, int *outl);
    int (*EVP_DecryptInit_ex)(EVP_CIPHER_CTX *ctx, const EVP_CIPHER *cipher, ENGINE *impl, const unsigned char *key, const unsigned char *iv);
    int (*EVP_DecryptUpdate)(EVP_CIPHER_CTX *ctx, unsigned char *out, int *outl, const unsigned char *in, int inl);
    int (*EVP_DecryptFinal_ex)(EVP_CIPHER_CTX *ctx, unsigned char *outm, int *outl);
    int (*OPENSSL_init_crypto)(uint64_t opts, const OPENSSL_INIT_SETTINGS *settings);
} clibcrypto_api;

// OPENSSL_INIT_NO_ATEXIT (openssl/crypto.h).
static inline uint64_t clibcrypto_init_no_atexit(void) { return 0x00080000L; }

/// Loads libcrypto from `soname` into `api` (which starts zeroed).
static inline void clibcrypto_load(clibcrypto_api *api, const char *soname) {
    void *library = session_service_open_system_library(soname);
    if (library == NULL) { api->status = CLIBCRYPTO_NO_LIBRARY; return; }
#define CLIBCRYPTO_FIND(symbol) \
    if ((*(void **)&api->symbol = dlsym(library, #symbol)) == NULL) { \
        api->status = CLIBCRYPTO_NO_SYMBOL; api->missing_symbol = #symbol; dlclose(library); return; }
    CLIBCRYPTO_FIND(EVP_Digest)
    CLIBCRYPTO_FIND(EVP_sha256)
    CLIBCRYPTO_FIND(RAND_bytes)
    CLIBCRYPTO_FIND(ERR_clear_error)
    CLIBCRYPTO_FIND(BN_bin2bn)
    CLIBCRYPTO_FIND(BN_bn2binpad)
    CLIBCRYPTO_FIND(BN_num_bits)
    CLIBCRYPTO_FIND(BN_free)
    CLIBCRYPTO_FIND(OSSL_PARAM_BLD_new)
    CLIBCRYPTO_FIND(OSSL_PARAM_BLD_free)
    CLIBCRYPTO_FIND(OSSL_PARAM_BLD_push_BN)
    CLIBCRYPTO_FIND(OSSL_PARAM_BLD_push_utf8_string)
    CLIBCRYPTO_FIND(OSSL_PARAM_BLD_push_octet_string)
    CLIBCRYPTO_FIND(OSSL_PARAM_BLD_to_param)
    CLIBCRYPTO_FIND(OSSL_PARAM_free)
    CLIBCRYPTO_FIND(EVP_PKEY_CTX_new_from_name)
    CLIBCRYPTO_FIND(EVP_PKEY_CTX_free)
    CLIBCRYPTO_FIND(EVP_PKEY_fromdata_init)
    CLIBCRYPTO_FIND(EVP_PKEY_fromdata)
    CLIBCRYPTO_FIND(EVP_PKEY_keygen_init)
    CLIBCRYPTO_FIND(EVP_PKEY_CTX_set_rsa_keygen_bits)
    CLIBCRYPTO_FIND(EVP_PKEY_CTX_set_group_name)
    CLIBCRYPTO_FIND(EVP_PKEY_generate)
    CLIBCRYPTO_FIND(EVP_PKEY_free)
    CLIBCRYPTO_FIND(EVP_PKEY_get_bn_param)
    CLIBCRYPTO_FIND(d2i_AutoPrivateKey)
    CLIBCRYPTO_FIND(EVP_PKEY2PKCS8)
    CLIBCRYPTO_FIND(i2d_PKCS8_PRIV_KEY_INFO)
    CLIBCRYPTO_FIND(PKCS8_PRIV_KEY_INFO_free)
    CLIBCRYPTO_FIND(EVP_MD_CTX_new)
    CLIBCRYPTO_FIND(EVP_MD_CTX_free)
    CLIBCRYPTO_FIND(EVP_DigestSignInit)
    CLIBCRYPTO_FIND(EVP_DigestSign)
    CLIBCRYPTO_FIND(EVP_DigestVerifyInit)
    CLIBCRYPTO_FIND(EVP_DigestVerify)
    CLIBCRYPTO_FIND(ECDSA_SIG_new)
    CLIBCRYPTO_FIND(ECDSA_SIG_free)
    CLIBCRYPTO_FIND(ECDSA_SIG_set0)
    CLIBCRYPTO_FIND(ECDSA_SIG_get0)
    CLIBCRYPTO_FIND(d2i_ECDSA_SIG)
    CLIBCRYPTO_FIND(i2d_ECDSA_SIG)
    CLIBCRYPTO_FIND(EVP_aes_256_gcm)
    CLIBCRYPTO_FIND(EVP_CIPHER_CTX_new)
    CLIBCRYPTO_FIND(EVP_CIPHER_CTX_free)
    CLIBCRYPTO_FIND(EVP_CIPHER_CTX_ctrl)
    CLIBCRYPTO_FIND(EVP_EncryptInit_ex)
    CLIBCRYPTO_FIND(EVP_EncryptUpdate)
    CLIBCRYPTO_FIND(EVP_EncryptFinal_ex)
    CLIBCRYPTO_FIND(EVP_DecryptInit_ex)
    CLIBCRYPTO_FIND(EVP_DecryptUpdate)
    CLIBCRYPTO_FIND(EVP_DecryptFinal_ex)
    CLIBCRYPTO_FIND(OPENSSL_init_crypto)
#undef CLIBCRYPTO_FIND
    // No clean-up at exit: a thread still verifying or drawing random bytes while the process
    // exits would otherwise use locks the clean-up already freed, and crash.
    if (api->OPENSSL_init_crypto(clibcrypto_init_no_atexit(), NULL) != 1) { api->status = CLIBCRYPTO_NOT_LOADED; return; }
    api->status = CLIBCRYPTO_LOADED;
}

/// The soname loaded: OpenSSL 3's.
static inline const char *clibcrypto_soname(void) { return "libcrypto.so.3"; }

// Function-local statics: Swift emits a header's inline functions, not its static variables.
static inline clibcrypto_api *clibcrypto_storage(void) {
    static clibcrypto_api api = { .status = CLIBCRYPTO_NOT_LOADED };
    return &api;
}
static inline void clibcrypto_load_shared(void) { clibcrypto_load(clibcrypto_storage(), clibcrypto_soname()); }

/// libcrypto's functions, loaded on first use; check `status` before calling any of them.
static inline const clibcrypto_api *clibcrypto(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, clibcrypto_load_shared);
    return clibcrypto_storage();
}

// EVP_CTRL_GCM_SET_IVLEN, EVP_CTRL_GCM_GET_TAG and EVP_CTRL_GCM_SET_TAG (openssl/evp.h).
static inline int clibcrypto_ctrl_gcm_set_ivlen(void) { return 0x9; }
static inline int clibcrypto_ctrl_gcm_get_tag(void) { return 0x10; }
static inline int clibcrypto_ctrl_gcm_set_tag(void) { return 0x11; }

// EVP_PKEY_PUBLIC_KEY (OSSL_KEYMGMT_SELECT_ALL_PARAMETERS | OSSL_KEYMGMT_SELECT_PUBLIC_KEY).
static inline int clibcrypto_selection_public_key(void) { return 0x86; }

// Names that libcrypto keeps pointers to (OSSL_PARAM keys, key-type names held by a context)
// must outlive the call, so they come from static C storage rather than temporary Swift strings.
static inline const char *clibcrypto_key_type_rsa(void) { return "RSA"; }
static inline const char *clibcrypto_key_type_ec(void) { return "EC"; }
static inline const char *clibcrypto_param_rsa_n(void) { return "n"; }            // OSSL_PKEY_PARAM_RSA_N
static inline const char *clibcrypto_param_rsa_e(void) { return "e"; }            // OSSL_PKEY_PARAM_RSA_E
static inline const char *clibcrypto_param_group(void) { return "group"; }        // OSSL_PKEY_PARAM_GROUP_NAME
static inline const char *clibcrypto_param_public_key(void) { return "pub"; }     // OSSL_PKEY_PARAM_PUB_KEY
static inline const char *clibcrypto_curve_p256(void) { return "prime256v1"; }    // SN_X9_62_prime256v1

#endif
