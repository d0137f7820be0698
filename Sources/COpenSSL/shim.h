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
#include <arpa/inet.h>
#include <string.h>

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

/* The names a peer's certificate is for, for an error that says which name it has when it lacks the one asked
   for: its subjectAltName DNS names and IP addresses (else its subject's common name), ", " between them, at most
   `max_names`; bytes that are not printable ASCII become '?' (the certificate comes from the peer). Writes at most
   `cap` bytes with the NUL into `out`; returns how many names it wrote, -1 when more did not fit. */
static inline int mailstore_peer_certificate_names(const SSL *ssl, char *out, size_t cap, int max_names) {
    if (cap == 0) return 0;
    out[0] = 0;
    /* A failed verification leaves the session without its peer certificate, but with the chain the peer sent,
       its own certificate first. */
    STACK_OF(X509) *chain = SSL_get_peer_cert_chain(ssl);
    X509 *cert = chain != NULL && sk_X509_num(chain) > 0 ? sk_X509_value(chain, 0) : SSL_get0_peer_certificate(ssl);
    if (cert == NULL) return 0;
    size_t used = 0;
    int written = 0, total = 0;
    char text[256];
    GENERAL_NAMES *names = X509_get_ext_d2i(cert, NID_subject_alt_name, NULL, NULL);
    int count = names == NULL ? 0 : sk_GENERAL_NAME_num(names);
    for (int i = 0; i <= count; i++) {
        int length = -1;
        const unsigned char *bytes = NULL;
        if (i < count) {
            const GENERAL_NAME *name = sk_GENERAL_NAME_value(names, i);
            if (name->type == GEN_DNS) {
                bytes = ASN1_STRING_get0_data(name->d.dNSName);
                length = ASN1_STRING_length(name->d.dNSName);
            } else if (name->type == GEN_IPADD) {
                int n = ASN1_STRING_length(name->d.iPAddress);
                int family = n == 4 ? AF_INET : (n == 16 ? AF_INET6 : -1);
                if (family < 0 || inet_ntop(family, ASN1_STRING_get0_data(name->d.iPAddress), text, sizeof text) == NULL) continue;
                bytes = (const unsigned char *)text;
                length = (int)strlen(text);
            }
        } else if (total == 0) {
            length = X509_NAME_get_text_by_NID(X509_get_subject_name(cert), NID_commonName, text, sizeof text);
            bytes = (const unsigned char *)text;
        }
        if (length < 0 || bytes == NULL) continue;
        total++;
        if (written >= max_names || used + (size_t)length + 3 > cap) { written = -1; break; }
        if (written > 0) { out[used++] = ','; out[used++] = ' '; }
        for (int k = 0; k < length; k++) out[used++] = (bytes[k] >= 0x20 && bytes[k] < 0x7F) ? (char)bytes[k] : '?';
        out[used] = 0;
        written++;
    }
    if (names != NULL) GENERAL_NAMES_free(names);
    return written;
}

#endif
