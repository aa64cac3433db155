#pragma once

#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <vector>

namespace dumpscope {

// A vector whose elements live in fixed-size chunks shared between copies: copying one copies
// a pointer per chunk, and writing through a copy first gives it its own copy of that chunk
// alone. The window publishes a snapshot of the analysis each time some buffers finish; with
// this, a snapshot costs the chunks that changed since the previous one, not the whole run.
// A const copy never changes, whoever writes to the others, so a snapshot can be read on one
// thread while the worker writes its live copy on another. Several threads may write distinct
// elements of one object, as with std::vector, only while no copy of it is made; reading
// through a non-const object's operator[] makes the chunk its own, so read through a const one.
template <typename T> class ChunkedVector {
  public:
    static constexpr std::size_t kChunk = 64;

    using value_type = T;
    using size_type = std::size_t;
    using difference_type = std::ptrdiff_t;
    using reference = T&;
    using const_reference = const T&;

    template <bool Const> class Iterator {
      public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = T;
        using difference_type = std::ptrdiff_t;
        using pointer = std::conditional_t<Const, const T*, T*>;
        using reference = std::conditional_t<Const, const T&, T&>;
        using Owner = std::conditional_t<Const, const ChunkedVector, ChunkedVector>;

        Iterator() = default;
        Iterator(Owner* owner, std::size_t i) : m_owner(owner), m_i(i) {}
        operator Iterator<true>() const { return {m_owner, m_i}; }

        reference operator*() const { return (*m_owner)[m_i]; }
        pointer operator->() const { return &(*m_owner)[m_i]; }
        reference operator[](difference_type n) const { return (*m_owner)[m_i + n]; }
        Iterator& operator++() { return ++m_i, *this; }
        Iterator operator++(int) { return {m_owner, m_i++}; }
        Iterator& operator--() { return --m_i, *this; }
        Iterator operator--(int) { return {m_owner, m_i--}; }
        Iterator& operator+=(difference_type n) { return m_i += n, *this; }
        Iterator& operator-=(difference_type n) { return m_i -= n, *this; }
        friend Iterator operator+(Iterator it, difference_type n) { return it += n; }
        friend Iterator operator+(difference_type n, Iterator it) { return it += n; }
        friend Iterator operator-(Iterator it, difference_type n) { return it -= n; }
        friend difference_type operator-(const Iterator& x, const Iterator& y) {
            return static_cast<difference_type>(x.m_i) - static_cast<difference_type>(y.m_i);
        }
        friend bool operator==(const Iterator& x, const Iterator& y) { return x.m_i == y.m_i; }
        friend auto operator<=>(const Iterator& x, const Iterator& y) { return x.m_i <=> y.m_i; }

      private:
        Owner* m_owner = nullptr;
        std::size_t m_i = 0;
    };
    using iterator = Iterator<false>;
    using const_iterator = Iterator<true>;

    ChunkedVector() = default;
    ChunkedVector(std::initializer_list<T> items) {
        for (const T& x : items)
            push_back(x);
    }
    template <std::input_iterator It> ChunkedVector(It first, It last) {
        for (; first != last; ++first)
            push_back(*first);
    }

    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    void clear() {
        m_chunks.clear();
        m_size = 0;
    }
    void reserve(std::size_t n) { m_chunks.reserve((n + kChunk - 1) / kChunk); }

    const T& operator[](std::size_t i) const { return (*m_chunks[i / kChunk])[i % kChunk]; }
    T& operator[](std::size_t i) { return own(i / kChunk)[i % kChunk]; }
    const T& at(std::size_t i) const { return (*this)[checked(i)]; }
    T& at(std::size_t i) { return (*this)[checked(i)]; }
    const T& front() const { return (*this)[0]; }
    T& front() { return (*this)[0]; }
    const T& back() const { return (*this)[m_size - 1]; }
    T& back() { return (*this)[m_size - 1]; }

    void push_back(const T& x) { emplace_back(x); }
    void push_back(T&& x) { emplace_back(std::move(x)); }
    template <typename... Args> T& emplace_back(Args&&... args) {
        if (m_size % kChunk == 0) {
            m_chunks.push_back(std::make_shared<std::vector<T>>());
            m_chunks.back()->reserve(kChunk);
        }
        T& x = own(m_chunks.size() - 1).emplace_back(std::forward<Args>(args)...);
        ++m_size;
        return x;
    }

    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, m_size}; }
    const_iterator cbegin() const { return begin(); }
    const_iterator cend() const { return end(); }
    iterator begin() { return {this, 0}; }
    iterator end() { return {this, m_size}; }

    // Makes every chunk this object's own (copying those another object still holds), so that
    // several threads may then write distinct elements.
    void detach() {
        for (std::size_t c = 0; c < m_chunks.size(); ++c)
            own(c);
    }

    // Whether element i is stored in the same chunk object as other's element i: what a copy
    // still shares with its source.
    bool sharesChunkWith(const ChunkedVector& other, std::size_t i) const {
        const std::size_t c = i / kChunk;
        return c < m_chunks.size() && c < other.m_chunks.size() && m_chunks[c] == other.m_chunks[c];
    }

    friend bool operator==(const ChunkedVector& x, const ChunkedVector& y) {
        if (x.size() != y.size()) return false;
        for (std::size_t i = 0; i < x.size(); ++i)
            if (!(x[i] == y[i])) return false;
        return true;
    }

  private:
    // The chunk to write to, first copied if another ChunkedVector still holds it.
    std::vector<T>& own(std::size_t c) {
        auto& chunk = m_chunks[c];
        if (chunk.use_count() > 1) {
            auto copy = std::make_shared<std::vector<T>>();
            copy->reserve(kChunk);
            copy->insert(copy->end(), chunk->begin(), chunk->end());
            chunk = std::move(copy);
        }
        return *chunk;
    }
    std::size_t checked(std::size_t i) const {
        if (i >= m_size) throw std::out_of_range("ChunkedVector::at");
        return i;
    }

    std::vector<std::shared_ptr<std::vector<T>>> m_chunks;
    std::size_t m_size = 0;
};

} // namespace dumpscope
