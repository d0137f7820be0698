#ifndef MAILSTORE_COPENSSL_SHIM_H
#define MAILSTORE_COPENSSL_SHIM_H
/* SHA256_Init/Update/Final are deprecated in OpenSSL 3 in favour of EVP, but EVP re-creates its
   provider context on every init (a malloc and free per digest), which costs more than hashing a
   small log record. The one-shot low-level calls are kept behind these wrappers. */
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/sha.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509v3.h>
#include <openssl/rand.h>

static inline int mailstore_sha256_init(SHA256_CTX *c) { return SHA256_Init(c); }
static inline int mailstore_sha256_update(SHA256_CTX *c, const void *data, size_t len) { return SHA256_Update(c, data, len); }
static inline int mailstore_sha256_final(unsigned char *md, SHA256_CTX *c) { return SHA256_Final(md, c); }

/* Macros Swift cannot call, wrapped for SecureTransport's TLS layer (the IMAP and SMTP clients). */
static inline int mailstore_ssl_ctx_set_min_proto_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_min_proto_version(ctx, version);
}
static inline int mailstore_ssl_set_tlsext_host_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}
static inline int mailstore_bio_set_mem_eof_return(BIO *bio, int value) {
    return (int)BIO_set_mem_eof_return(bio, value);
}

#endif
