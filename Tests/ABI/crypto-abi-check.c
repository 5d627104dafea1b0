// Compares the declarations Sources/CLibCrypto/shim.h transcribes (SessionCore loads libcrypto at
// run time, without OpenSSL's headers) with OpenSSL 3's real headers: the opaque types are the
// headers' own (a differing typedef fails the compile), the type of every function the shim looks
// up fails the compile when it differs, and the selection and parameter names are compared when
// the program runs, which then also loads the library and finds every symbol.
// Run by Tests/ABI/run.sh where libssl-dev is installed.
#include <stdio.h>
#include <string.h>
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/opensslv.h>
#include <openssl/param_build.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include "../../Sources/CLibCrypto/shim.h"

#define SAME_TYPE(a, b) _Static_assert(__builtin_types_compatible_p(a, b), #a " is not " #b)
// The field is named after the function.
#define SAME_FUNCTION(name) SAME_TYPE(__typeof__(((clibcrypto_api *)0)->name), __typeof__(&(name)))

SAME_FUNCTION(EVP_Digest);
SAME_FUNCTION(OPENSSL_init_crypto);
SAME_TYPE(OPENSSL_INIT_SETTINGS, struct ossl_init_settings_st);
SAME_FUNCTION(EVP_sha256);
SAME_FUNCTION(RAND_bytes);
SAME_FUNCTION(ERR_clear_error);
SAME_FUNCTION(BN_bin2bn);
SAME_FUNCTION(BN_bn2binpad);
SAME_FUNCTION(BN_num_bits);
SAME_FUNCTION(BN_free);
SAME_FUNCTION(OSSL_PARAM_BLD_new);
SAME_FUNCTION(OSSL_PARAM_BLD_free);
SAME_FUNCTION(OSSL_PARAM_BLD_push_BN);
SAME_FUNCTION(OSSL_PARAM_BLD_push_utf8_string);
SAME_FUNCTION(OSSL_PARAM_BLD_push_octet_string);
SAME_FUNCTION(OSSL_PARAM_BLD_to_param);
SAME_FUNCTION(OSSL_PARAM_free);
SAME_FUNCTION(EVP_PKEY_CTX_new_from_name);
SAME_FUNCTION(EVP_PKEY_CTX_free);
SAME_FUNCTION(EVP_PKEY_fromdata_init);
SAME_FUNCTION(EVP_PKEY_fromdata);
SAME_FUNCTION(EVP_PKEY_keygen_init);
SAME_FUNCTION(EVP_PKEY_CTX_set_rsa_keygen_bits);
SAME_FUNCTION(EVP_PKEY_CTX_set_group_name);
SAME_FUNCTION(EVP_PKEY_generate);
SAME_FUNCTION(EVP_PKEY_free);
SAME_FUNCTION(EVP_PKEY_get_bn_param);
SAME_FUNCTION(d2i_AutoPrivateKey);
SAME_FUNCTION(EVP_PKEY2PKCS8);
SAME_FUNCTION(i2d_PKCS8_PRIV_KEY_INFO);
SAME_FUNCTION(PKCS8_PRIV_KEY_INFO_free);
SAME_FUNCTION(EVP_MD_CTX_new);
SAME_FUNCTION(EVP_MD_CTX_free);
SAME_FUNCTION(EVP_DigestSignInit);
SAME_FUNCTION(EVP_DigestSign);
SAME_FUNCTION(EVP_DigestVerifyInit);
SAME_FUNCTION(EVP_DigestVerify);
SAME_FUNCTION(ECDSA_SIG_new);
SAME_FUNCTION(ECDSA_SIG_free);
SAME_FUNCTION(ECDSA_SIG_set0);
SAME_FUNCTION(ECDSA_SIG_get0);
SAME_FUNCTION(d2i_ECDSA_SIG);
SAME_FUNCTION(i2d_ECDSA_SIG);
SAME_FUNCTION(EVP_aes_256_gcm);
SAME_FUNCTION(EVP_CIPHER_CTX_new);
SAME_FUNCTION(EVP_CIPHER_CTX_free);
SAME_FUNCTION(EVP_CIPHER_CTX_ctrl);
SAME_FUNCTION(EVP_EncryptInit_ex);
SAME_FUNCTION(EVP_EncryptUpdate);
SAME_FUNCTION(EVP_EncryptFinal_ex);
SAME_FUNCTION(EVP_DecryptInit_ex);
SAME_FUNCTION(EVP_DecryptUpdate);
SAME_FUNCTION(EVP_DecryptFinal_ex);

static int differences = 0;
#define SAME_NAME(ours, theirs) \
    if (strcmp(ours, theirs) != 0) { fprintf(stderr, #ours " is \"%s\", OpenSSL says \"%s\"\n", ours, theirs); differences++; }

int main(void) {
    if (clibcrypto_init_no_atexit() != OPENSSL_INIT_NO_ATEXIT) {
        fprintf(stderr, "clibcrypto_init_no_atexit() differs from OPENSSL_INIT_NO_ATEXIT\n");
        return 1;
    }
    if (clibcrypto_selection_public_key() != EVP_PKEY_PUBLIC_KEY) {
        fprintf(stderr, "clibcrypto_selection_public_key() is %d, EVP_PKEY_PUBLIC_KEY %d\n", clibcrypto_selection_public_key(), EVP_PKEY_PUBLIC_KEY);
        differences++;
    }
    SAME_NAME(clibcrypto_param_rsa_n(), OSSL_PKEY_PARAM_RSA_N);
    SAME_NAME(clibcrypto_param_rsa_e(), OSSL_PKEY_PARAM_RSA_E);
    SAME_NAME(clibcrypto_param_group(), OSSL_PKEY_PARAM_GROUP_NAME);
    SAME_NAME(clibcrypto_param_public_key(), OSSL_PKEY_PARAM_PUB_KEY);
    SAME_NAME(clibcrypto_curve_p256(), SN_X9_62_prime256v1);
    if (clibcrypto_ctrl_gcm_set_ivlen() != EVP_CTRL_GCM_SET_IVLEN || clibcrypto_ctrl_gcm_get_tag() != EVP_CTRL_GCM_GET_TAG
        || clibcrypto_ctrl_gcm_set_tag() != EVP_CTRL_GCM_SET_TAG) {
        fprintf(stderr, "the GCM control codes differ from openssl/evp.h\n");
        differences++;
    }
    if (differences > 0) return 1;
    // And the library really loads, every symbol found.
    const clibcrypto_api *api = clibcrypto();
    if (api->status != 0) { fprintf(stderr, "%s: status %d %s\n", clibcrypto_soname(), api->status, api->missing_symbol ? api->missing_symbol : ""); return 1; }
    printf("CLibCrypto: 6 names, 3 control codes and %d functions match %s\n", 51, OPENSSL_VERSION_TEXT);
    return 0;
}
