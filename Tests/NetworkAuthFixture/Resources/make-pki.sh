#!/bin/sh
# Makes a throw-away PKI in the directory given as $1: a private CA, a server certificate for 127.0.0.1 and
# localhost, a client certificate as PEM (key encrypted with $2) and as PKCS#12 (password $3), an unrelated
# CA, and libcurl pins (sha256//BASE64 of the DER public key) of the server's key and of an unrelated key.
# EC P-256 keys: fast to generate on a loaded CI machine.
set -eu
cd "$1"
key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }
pin() { printf 'sha256//%s' "$(openssl pkey -in "$1" -pubout -outform DER | openssl dgst -sha256 -binary | openssl base64 -A)" >"$2"; }

key ca.key
openssl req -x509 -new -key ca.key -out ca.pem -days 2 -subj "/CN=Network Auth Test CA" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign"

key server.key
openssl req -new -key server.key -out server.csr -subj "/CN=localhost"
printf '%s\n' "basicConstraints=CA:FALSE" "keyUsage=critical,digitalSignature" \
    "extendedKeyUsage=serverAuth" "subjectAltName=IP:127.0.0.1,DNS:localhost" >server.ext
openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2 \
    -extfile server.ext 2>/dev/null
pin server.key server.pin

key client.key
openssl req -new -key client.key -out client.csr -subj "/CN=network-auth-client"
printf '%s\n' "basicConstraints=CA:FALSE" "keyUsage=critical,digitalSignature" \
    "extendedKeyUsage=clientAuth" >client.ext
openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out client.pem -days 2 \
    -extfile client.ext 2>/dev/null
openssl pkey -in client.key -out client-encrypted.key -aes256 -passout "pass:$2"
openssl pkcs12 -export -in client.pem -inkey client.key -certfile ca.pem -name network-auth-client \
    -out client.p12 -passout "pass:$3"
rm client.key

# Trusting these must not make the server trusted.
key other-ca.key
openssl req -x509 -new -key other-ca.key -out other-ca.pem -days 2 -subj "/CN=Unrelated Test CA"
pin other-ca.key other.pin
chmod 0644 ./*
