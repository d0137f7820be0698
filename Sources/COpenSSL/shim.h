#ifndef MAILSTORE_COPENSSL_SHIM_H
#define MAILSTORE_COPENSSL_SHIM_H
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509v3.h>
#include <openssl/rand.h>

#endif
