/* cardhall._native_shuffle: random.Random(seed).shuffle(items) for a string seed, in C.
 *
 * seeded_shuffle(seed, items) leaves the list `items` in exactly the order
 * random.Random(seed).shuffle(items) leaves it in, for a str `seed`, doing what CPython
 * does step by step (the same SHA-512, the same Mersenne Twister, MT19937 as in
 * Modules/_randommodule.c, the same draws) but without a Python object per draw or a
 * generator object at all:
 *
 *   1. the key (Lib/random.py `seed`, version 2, for a str): the seed's UTF-8 bytes
 *      followed by their SHA-512 (FIPS 180-4), read as one big-endian integer;
 *   2. seeding (_randommodule.c `random_seed`): that integer cut into 32-bit words from
 *      its least significant end, as many as its bit length needs (at least one), fed
 *      to `init_by_array`, which starts from `init_genrand(19650218)`: that state does
 *      not depend on the key and is computed once, when the module is imported;
 *   3. drawing (_randommodule.c `genrand_uint32`): CPython regenerates all 624 state
 *      words when it runs out (the "twist"); here each word is regenerated just before
 *      it is read, in the same order, which gives the same words and computes only those
 *      a shuffle reads;
 *   4. shuffling (Lib/random.py `shuffle` and `_randbelow_with_getrandbits`): from the
 *      last index i down to 1, j = a draw of bit_length(i + 1) bits, drawn again while
 *      j > i, then items[i] and items[j] swap; a draw of k <= 32 bits is the top k bits
 *      of one word (_randommodule.c `getrandbits`).
 *
 * tests/test_shuffle.py checks the orders against the running Python's own `random` (on
 * the compiled build, where this module exists), and cardhall.shuffle checks a few seeds
 * when it is imported and does not use this module if they differ.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <string.h>

/* ------------------------------------------------------------------ step 1: SHA-512 */

/* FIPS 180-4, 4.2.3: the first 64 bits of the fractional parts of the cube roots of the
 * first 80 primes. */
static const uint64_t sha512_k[80] = {
    0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL, 0xe9b5dba58189dbbcULL,
    0x3956c25bf348b538ULL, 0x59f111f1b605d019ULL, 0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL,
    0xd807aa98a3030242ULL, 0x12835b0145706fbeULL, 0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL,
    0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL, 0xc19bf174cf692694ULL,
    0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL, 0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL,
    0x2de92c6f592b0275ULL, 0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL,
    0x983e5152ee66dfabULL, 0xa831c66d2db43210ULL, 0xb00327c898fb213fULL, 0xbf597fc7beef0ee4ULL,
    0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL, 0x06ca6351e003826fULL, 0x142929670a0e6e70ULL,
    0x27b70a8546d22ffcULL, 0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL, 0x53380d139d95b3dfULL,
    0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL, 0x92722c851482353bULL,
    0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL, 0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL,
    0xd192e819d6ef5218ULL, 0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL,
    0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL, 0x2748774cdf8eeb99ULL, 0x34b0bcb5e19b48a8ULL,
    0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL, 0x5b9cca4f7763e373ULL, 0x682e6ff3d6b2b8a3ULL,
    0x748f82ee5defb2fcULL, 0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
    0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL, 0xc67178f2e372532bULL,
    0xca273eceea26619cULL, 0xd186b8c721c0c207ULL, 0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL,
    0x06f067aa72176fbaULL, 0x0a637dc5a2c898a6ULL, 0x113f9804bef90daeULL, 0x1b710b35131c471bULL,
    0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL, 0x431d67c49c100d4cULL,
    0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL, 0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL,
};

/* FIPS 180-4, 5.3.5: the first 64 bits of the fractional parts of the square roots of
 * the first 8 primes. */
static const uint64_t sha512_h0[8] = {
    0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
    0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
};

#define ROTR64(x, n) (((x) >> (n)) | ((x) << (64 - (n))))

static uint64_t
load_be64(const unsigned char *p)
{
    uint64_t x = 0;
    for (int b = 0; b < 8; b++) {
        x = x << 8 | p[b];
    }
    return x;
}

/* FIPS 180-4, 6.4.2: one 128-byte block into the hash value h. */
static void
sha512_block(uint64_t h[8], const unsigned char *block)
{
    uint64_t w[80];
    for (int t = 0; t < 16; t++) {
        w[t] = load_be64(block + 8 * t);
    }
    for (int t = 16; t < 80; t++) {
        uint64_t s0 = ROTR64(w[t - 15], 1) ^ ROTR64(w[t - 15], 8) ^ (w[t - 15] >> 7);
        uint64_t s1 = ROTR64(w[t - 2], 19) ^ ROTR64(w[t - 2], 61) ^ (w[t - 2] >> 6);
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    uint64_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int t = 0; t < 80; t++) {
        uint64_t t1 = hh + (ROTR64(e, 14) ^ ROTR64(e, 18) ^ ROTR64(e, 41)) + ((e & f) ^ (~e & g))
                      + sha512_k[t] + w[t];
        uint64_t t2 = (ROTR64(a, 28) ^ ROTR64(a, 34) ^ ROTR64(a, 39)) + ((a & b) ^ (a & c) ^ (b & c));
        hh = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
}

/* FIPS 180-4, 5.1.2 and 6.4: the SHA-512 digest of data[0 .. size - 1] into out. */
static void
sha512(const unsigned char *data, size_t size, unsigned char out[64])
{
    uint64_t h[8];
    memcpy(h, sha512_h0, sizeof(h));
    size_t done = 0;
    for (; size - done >= 128; done += 128) {
        sha512_block(h, data + done);
    }
    /* Padding: the rest, a 1 bit, zeros, and the length in bits as 128 bits big-endian,
     * in one block or two. */
    unsigned char tail[256] = {0};
    size_t rest = size - done;
    memcpy(tail, data + done, rest);
    tail[rest] = 0x80;
    size_t end = rest + 1 + 16 <= 128 ? 128 : 256;
    uint64_t bits_high = (uint64_t)size >> 61, bits_low = (uint64_t)size << 3;
    for (size_t b = 0; b < 8; b++) {
        tail[end - 16 + b] = (unsigned char)(bits_high >> (56 - 8 * b));
        tail[end - 8 + b] = (unsigned char)(bits_low >> (56 - 8 * b));
    }
    sha512_block(h, tail);
    if (end == 256) {
        sha512_block(h, tail + 128);
    }
    for (int i = 0; i < 8; i++) {
        for (int b = 0; b < 8; b++) {
            out[8 * i + b] = (unsigned char)(h[i] >> (56 - 8 * b));
        }
    }
}

/* -------------------------------------------------------- steps 2 and 3: the Twister */

/* MT19937's period parameters (_randommodule.c: N, M, MATRIX_A, UPPER_MASK, LOWER_MASK). */
#define MT_N 624
#define MT_M 397
#define MT_MATRIX_A 0x9908b0dfU
#define MT_UPPER_MASK 0x80000000U
#define MT_LOWER_MASK 0x7fffffffU

/* A key (a seed's UTF-8 bytes and their SHA-512) of up to this many bytes is kept on the
 * stack (a seed of up to 192 bytes), a longer one allocated. */
#define KEY_BYTES_ON_STACK 256

/* init_genrand(19650218)'s state (_randommodule.c `init_genrand`), the starting point of
 * every `init_by_array`: filled in once by the module's init. */
static uint32_t genrand_19650218[MT_N];

typedef struct {
    uint32_t mt[MT_N];
    int index; /* the next word to regenerate and read, 0 .. MT_N - 1 */
} twister;

static void
init_genrand_table(void)
{
    /* _randommodule.c `init_genrand(self, 19650218U)` */
    uint32_t *mt = genrand_19650218;
    mt[0] = 19650218U;
    for (uint32_t i = 1; i < MT_N; i++) {
        mt[i] = 1812433253U * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i;
    }
}

/* _randommodule.c `init_by_array` from the precomputed init_genrand(19650218) state.
 * `key` holds key_length >= 1 words, each already plus its index (the original adds
 * init_key[j] and then j; the sum is the same modulo 2**32). The previous word is carried
 * in a register rather than read back from the state: the same values, a shorter chain. */
static void
init_by_array(twister *g, const uint32_t *key, size_t key_length)
{
    uint32_t *mt = g->mt;
    memcpy(mt, genrand_19650218, sizeof(genrand_19650218));
    uint32_t prev = mt[0];
    size_t i = 1, j = 0;
    for (size_t k = MT_N > key_length ? MT_N : key_length; k; k--) {
        prev = (mt[i] ^ ((prev ^ (prev >> 30)) * 1664525U)) + key[j]; /* non linear */
        mt[i] = prev;
        i++;
        j++;
        if (i >= MT_N) {
            mt[0] = prev; /* mt[0] = mt[N-1] */
            i = 1;
        }
        if (j >= key_length) {
            j = 0;
        }
    }
    for (size_t k = MT_N - 1; k; k--) {
        prev = (mt[i] ^ ((prev ^ (prev >> 30)) * 1566083941U)) - (uint32_t)i; /* non linear */
        mt[i] = prev;
        i++;
        if (i >= MT_N) {
            mt[0] = prev;
            i = 1;
        }
    }
    mt[0] = 0x80000000U; /* MSB is 1; assuring non-zero initial array */
    /* CPython's index is N after seeding: the first draw twists. Here: regenerate word 0
     * first. */
    g->index = 0;
}

/* _randommodule.c `genrand_uint32`, with the twist done one word at a time: word kk is
 * regenerated from words kk, kk + 1 and kk + M as the batch twist does (words before kk
 * already new, words from kk on still old, in both), then tempered. */
static inline uint32_t
genrand_uint32(twister *g)
{
    uint32_t *mt = g->mt;
    int kk = g->index;
    int next = kk + 1 < MT_N ? kk + 1 : 0;
    int far = kk + MT_M < MT_N ? kk + MT_M : kk + MT_M - MT_N;
    uint32_t y = (mt[kk] & MT_UPPER_MASK) | (mt[next] & MT_LOWER_MASK);
    y = mt[far] ^ (y >> 1) ^ ((y & 1U) ? MT_MATRIX_A : 0U);
    mt[kk] = y;
    g->index = next;
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* The number of bits of n > 0 (int.bit_length). */
static inline int
bit_length(uint64_t n)
{
    int k = 0;
    while (n) {
        n >>= 1;
        k++;
    }
    return k;
}

/* Lib/random.py `_randbelow_with_getrandbits(n)` for a list of over 2**32 items
 * (32 < k = n.bit_length() <= 64): getrandbits(k), again while the result is >= n.
 * getrandbits(k) (_randommodule.c) takes the first word as the low 32 bits and the next
 * word's top k - 32 bits as the high ones. (A draw of k <= 32 bits, one word's top k
 * bits, is inlined in the shuffle's usual loop.) */
static inline uint64_t
randbelow_wide(twister *g, uint64_t n, int k)
{
    uint64_t r;
    do {
        uint64_t low = genrand_uint32(g);
        uint64_t high = genrand_uint32(g) >> (64 - k);
        r = high << 32 | low;
    } while (r >= n);
    return r;
}

/* ---------------------------------------------------------------- the module */

PyDoc_STRVAR(seeded_shuffle_doc,
"seeded_shuffle(seed, items, /)\n"
"--\n"
"\n"
"Shuffle the list items in place exactly as random.Random(seed).shuffle(items)\n"
"would, for a str seed.");

static PyObject *
seeded_shuffle(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "seeded_shuffle() takes 2 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *seed = args[0];
    PyObject *items = args[1];
    if (!PyUnicode_Check(seed)) {
        PyErr_Format(PyExc_TypeError, "seeded_shuffle() seed must be a str, not %.200s",
                     Py_TYPE(seed)->tp_name);
        return NULL;
    }
    if (!PyList_Check(items)) {
        PyErr_Format(PyExc_TypeError, "seeded_shuffle() items must be a list, not %.200s",
                     Py_TYPE(items)->tp_name);
        return NULL;
    }

    /* Step 1: the key, data + sha512(data) for the seed's UTF-8 bytes data (a lone
     * surrogate raises UnicodeEncodeError, as str.encode does). */
    Py_ssize_t data_size;
    const char *data = PyUnicode_AsUTF8AndSize(seed, &data_size);
    if (data == NULL) {
        return NULL;
    }
    size_t size = (size_t)data_size + 64;
    unsigned char key_on_stack[KEY_BYTES_ON_STACK];
    unsigned char *key = key_on_stack;
    if (size > KEY_BYTES_ON_STACK) {
        key = PyMem_Malloc(size);
        if (key == NULL) {
            return PyErr_NoMemory();
        }
    }
    memcpy(key, data, (size_t)data_size);
    sha512((const unsigned char *)data, (size_t)data_size, key + data_size);

    /* Step 2, _randommodule.c `random_seed`: the key read as a big-endian integer has
     * max(1, ceil(bits / 32)) words, that is one per 4 bytes (rounded up) once its
     * leading zero bytes are dropped; word w holds the integer's bits 32w .. 32w + 31,
     * that is the bytes 4w .. 4w + 3 counted from the end. */
    const unsigned char *bytes = key;
    while (size > 0 && bytes[0] == 0) {
        bytes++;
        size--;
    }
    size_t key_length = size == 0 ? 1 : (size + 3) / 4;
    uint32_t words_on_stack[KEY_BYTES_ON_STACK / 4];
    uint32_t *words = words_on_stack;
    if (key_length > KEY_BYTES_ON_STACK / 4) {
        words = PyMem_Malloc(key_length * sizeof(uint32_t));
        if (words == NULL) {
            if (key != key_on_stack) {
                PyMem_Free(key);
            }
            return PyErr_NoMemory();
        }
    }
    for (size_t w = 0; w < key_length; w++) {
        uint32_t word = 0;
        for (size_t b = 0; b < 4; b++) { /* byte b of the word counts 256**b */
            size_t at = 4 * w + b;       /* the at-th byte from the end */
            if (at < size) {
                word |= (uint32_t)bytes[size - 1 - at] << (8 * b);
            }
        }
        words[w] = word + (uint32_t)w; /* init_by_array adds j to init_key[j]: done here */
    }
    twister g;
    init_by_array(&g, words, key_length);
    if (words != words_on_stack) {
        PyMem_Free(words);
    }
    if (key != key_on_stack) {
        PyMem_Free(key);
    }

    /* Steps 3 and 4: Lib/random.py `shuffle`, swapping the list's items in place (no
     * Python code runs meanwhile, so the list cannot change under us). */
    PyObject **item = ((PyListObject *)items)->ob_item;
    uint64_t n = (uint64_t)PyList_GET_SIZE(items);
    if (n > 1 && n <= 0xffffffffU) {
        /* The usual case, every draw one word: randbelow(i + 1) unrolled into one loop
         * over the words drawn, without a branch on whether a word is accepted (a
         * rejection happens at random, so such a branch is mispredicted often): a rejected
         * word swaps items[i] with itself and leaves i as it is. */
        int k = bit_length(n); /* bit_length(i + 1), kept up to date */
        uint32_t i = (uint32_t)(n - 1);
        while (i > 0) {
            uint32_t j = genrand_uint32(&g) >> (32 - k);
            uint32_t accept = j <= i;
            j = accept ? j : i;
            PyObject *swap = item[i];
            item[i] = item[j];
            item[j] = swap;
            /* i + 1 a power of two: i has one bit fewer */
            k -= (int)(accept & ((i & (i + 1)) == 0));
            i -= accept;
        }
    }
    else if (n > 1) { /* over 2**32 items: the same, a draw of more than one word */
        int k = bit_length(n);
        for (uint64_t i = n - 1; i > 0; i--) {
            uint64_t j = randbelow_wide(&g, i + 1, k);
            PyObject *swap = item[i];
            item[i] = item[j];
            item[j] = swap;
            if ((i & (i + 1)) == 0) {
                k--;
            }
        }
    }
    Py_RETURN_NONE;
}

static PyMethodDef native_shuffle_methods[] = {
    {"seeded_shuffle", (PyCFunction)(void (*)(void))seeded_shuffle, METH_FASTCALL,
     seeded_shuffle_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef native_shuffle_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "cardhall._native_shuffle",
    .m_doc = "random.Random(seed).shuffle for a string seed, in C (see cardhall.shuffle).",
    .m_size = 0,
    .m_methods = native_shuffle_methods,
};

PyMODINIT_FUNC
PyInit__native_shuffle(void)
{
    init_genrand_table();
    return PyModule_Create(&native_shuffle_module);
}
