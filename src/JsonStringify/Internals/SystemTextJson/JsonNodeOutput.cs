using System.Collections;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Text.Json;
using System.Text.Json.Nodes;

namespace JsonStringify.Internals;

/// <summary>
/// Builds System.Text.Json nodes as the walk goes, with no JSON text in between: objects are <see cref="JsonObject"/>s
/// (in the walk's key order), arrays <see cref="JsonArray"/>s, strings and booleans <see cref="JsonValue"/>s of the
/// .NET value, numbers <see cref="JsonValue"/>s of the double that write JavaScript's digits
/// (<see cref="JsNumberConverter"/>), and null is a null node, as in System.Text.Json's own model. Raw JSON text
/// (JSON.rawJSON, a host serializer's) is parsed into a node. No text is made, so <see cref="Length"/> stays 0.
/// </summary>
internal readonly struct JsonNodeOutput : IJsonOutput<JsonNodeOutput>
{
    private readonly Builder _builder;

    private JsonNodeOutput(Builder builder) => _builder = builder;

    public int Depth => _builder.Depth;

    // No text: the length limit only applies through OpenArray's check of an array's shortest text (see
    // docs/limits.md).
    public long Length => 0;

    public bool IsOverLimit => false;

    /// <summary>The node the last successful call built (null for JSON null).</summary>
    public JsonNode? Result => _builder.Root;

    // A node's name is the plain one.
    public static bool NeedsPlainNames => true;

    public static JsonNodeOutput Create() => new(new Builder());

    // No destination: the tree is read from Result after the call. The depth is kept for the raw text's parse.
    public int LimitDepth(int maxDepth) => _builder.MaxDepth = maxDepth;

    public void Start(string gap, long maxLength)
    {
        Debug.Assert(gap.Length == 0, "nodes have no layout");
        _builder.Start();
    }

    public void Complete() => Debug.Assert(_builder.Depth == 0, "every container was closed");

    public void Reset() => _builder.Reset();

    public void WriteLiteral(JsonLiteral literal) =>
        _builder.Add(literal == JsonLiteral.Null ? null : JsonValue.Create(literal == JsonLiteral.True));

    public void WriteErraticNumber(double value) => WriteNumber(value);

    public void WriteNumber(double value)
    {
        // NaN and the infinities are null, as JSON.stringify writes them; -0 is written 0, and parsed back as +0.
        if (!double.IsFinite(value))
        {
            _builder.Add(null);
            return;
        }

        _builder.Add(JsonValue.Create(value == 0 ? 0d : value, JsNumberConverter.TypeInfo));
    }

    public void WriteString(string value) => _builder.Add(JsonValue.Create(value));

    // A surrogate in the text without its other half becomes U+FFFD, as the UTF-8 sinks write it: the parser reads
    // UTF-8, which cannot hold one. The text nests as deep as the walk may go from here, as ToJsonElement's reader
    // lets it (JsonNode.Parse alone stops at 64 levels).
    public void WriteRaw(string text) => _builder.Add(JsonNode.Parse(
        Surrogates.ReplaceUnpaired(text),
        documentOptions: new JsonDocumentOptions { MaxDepth = Math.Max(1, _builder.MaxDepth - _builder.Depth) }));

    public void StartObject() => _builder.StartObject();

    public void WritePropertyName(string name, bool first) => _builder.Name = name;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteQuotedPropertyName(string quotedWithColon, string? name, bool first) => _builder.Name = name;

    public void EndObject(bool empty) => _builder.End();

    public void StartArray() => _builder.StartArray();

    public void WriteSeparator(bool first)
    {
    }

    public void EndArray(bool empty) => _builder.End();

    public void WriteEmptyArray() => _builder.Add(new JsonArray());

    public void WriteEmptyObject() => _builder.Add(new JsonObject());

    /// <summary>
    /// The tree being built. A container is made when it closes, from its children, which wait until then on one stack
    /// shared by every open container: an array from the span of its elements (its list is exactly as long), an object
    /// from a window over its properties that tells their count first (its dictionary is made that size, never
    /// grown). A node checks, as it joins a parent, that it is not among the parent's ancestors; a new container has
    /// no parent yet, so that check is one step, and a tree of any depth builds in linear time.
    /// </summary>
    private sealed class Builder : IDisposable
    {
        // Past this many entries, the stack of waiting children is not kept from one call to the next.
        private const int MaxKeptChildren = 1 << 16;

        // The children of every open container, innermost container's last, each with its name (null in an array).
        private JsonNode?[] _children = new JsonNode?[64];
        private string?[] _childNames = new string?[64];
        private int _childCount;

        // The open containers, outermost first: where each one's children start on the stack, whether it is an object,
        // and the name it will have in its parent (null in an array or at the root).
        private Container[] _open = new Container[16];

        private readonly PropertyWindow _window = new();

        public int Depth { get; private set; }

        // The call's JsonSerializerOptions.MaxDepth: how deep the tree may nest, raw text included.
        public int MaxDepth { get; set; }

        public JsonNode? Root { get; private set; }

        /// <summary>The name of the next property of the innermost open object.</summary>
        public string? Name { get; set; }

        public void Start()
        {
            Root = null;
            Depth = 0;
        }

        public void Reset()
        {
            // A call that threw leaves children on the stack; one that succeeded leaves none.
            if (_children.Length > MaxKeptChildren)
            {
                _children = new JsonNode?[64];
                _childNames = new string?[64];
            }
            else
            {
                Array.Clear(_children, 0, _childCount);
                Array.Clear(_childNames, 0, _childCount);
            }

            Array.Clear(_open, 0, Depth);
            _window.Release();
            _childCount = 0;
            Root = null;
            Name = null;
            Depth = 0;
        }

        // The window holds nothing to release (it is its own enumerator, which is IDisposable).
        public void Dispose() => _window.Dispose();

        public void Add(JsonNode? node)
        {
            if (Depth == 0)
            {
                Root = node;
                return;
            }

            if (_childCount == _children.Length)
            {
                Array.Resize(ref _children, _childCount * 2);
                Array.Resize(ref _childNames, _childCount * 2);
            }

            // A name is set before each property's value, and only then (see Open): null in an array.
            Debug.Assert(_open[Depth - 1].IsObject == (Name is not null), "an object's children have names, an array's none");
            _children[_childCount] = node;
            _childNames[_childCount] = Name;
            _childCount++;
            Name = null;
        }

        public void StartObject() => Open(isObject: true);

        public void StartArray() => Open(isObject: false);

        // The innermost container is complete: it is made from its children, which leave the stack, and joins its
        // parent under its name, or is the root.
        public void End()
        {
            Debug.Assert(Depth > 0, "a container is open");
            Depth--;
            Container closed = _open[Depth];
            int count = _childCount - closed.Start;
            JsonNode node = closed.IsObject
                ? MakeObject(closed.Start, count)
                : new JsonArray(_children.AsSpan(closed.Start, count));
            Array.Clear(_children, closed.Start, count);
            Array.Clear(_childNames, closed.Start, count);
            _childCount = closed.Start;
            _open[Depth] = default;
            Name = closed.Name;
            Add(node);
        }

        private JsonObject MakeObject(int start, int count)
        {
            _window.Set(_childNames, _children, start, count);
            try
            {
                return new JsonObject(_window);
            }
            catch (ArgumentException)
            {
                return MakeObjectKeepingLast(start, count);
            }
            finally
            {
                _window.Release();
            }
        }

        // The walk does not repeat a key in an object, but a host object's [[OwnPropertyKeys]] might: then the last
        // value stays, as JSON.parse keeps it. The object that refused the repeated key keeps the children it took
        // before, so those join this one as copies.
        [MethodImpl(MethodImplOptions.NoInlining)]
        private JsonObject MakeObjectKeepingLast(int start, int count)
        {
            var o = new JsonObject();
            for (int i = start; i < start + count; i++)
            {
                JsonNode? child = _children[i];
                o[_childNames[i]!] = child?.Parent is null ? child : child.DeepClone();
            }

            return o;
        }

        private void Open(bool isObject)
        {
            if (Depth == _open.Length)
            {
                Array.Resize(ref _open, Depth * 2);
            }

            _open[Depth] = new Container(_childCount, isObject, Name);
            Name = null;
            Depth++;
        }

        private readonly record struct Container(int Start, bool IsObject, string? Name);
    }

    /// <summary>
    /// The properties of an object about to be made, as the collection <see cref="JsonObject"/>'s constructor takes:
    /// it reads the count first and sizes its dictionary for it, then enumerates. One instance per builder is its own
    /// enumerator, reused for every object, so that making an object allocates only the object and its dictionary.
    /// </summary>
    private sealed class PropertyWindow : ICollection<KeyValuePair<string, JsonNode?>>, IEnumerator<KeyValuePair<string, JsonNode?>>
    {
        private string?[] _names = [];
        private JsonNode?[] _values = [];
        private int _start;
        private int _count;
        private int _position;

        public int Count => _count;

        public bool IsReadOnly => true;

        public KeyValuePair<string, JsonNode?> Current => new(_names[_start + _position]!, _values[_start + _position]);

        object IEnumerator.Current => Current;

        public void Set(string?[] names, JsonNode?[] values, int start, int count)
        {
            _names = names;
            _values = values;
            _start = start;
            _count = count;
            _position = -1;
        }

        public void Release()
        {
            _names = [];
            _values = [];
            _start = 0;
            _count = 0;
            _position = -1;
        }

        public IEnumerator<KeyValuePair<string, JsonNode?>> GetEnumerator()
        {
            _position = -1;
            return this;
        }

        IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();

        public bool MoveNext() => ++_position < _count;

        public void Reset() => _position = -1;

        public void Dispose()
        {
        }

        public void CopyTo(KeyValuePair<string, JsonNode?>[] array, int arrayIndex)
        {
            for (int i = 0; i < _count; i++)
            {
                array[arrayIndex + i] = new(_names[_start + i]!, _values[_start + i]);
            }
        }

        public bool Contains(KeyValuePair<string, JsonNode?> item) => throw new NotSupportedException();

        public void Add(KeyValuePair<string, JsonNode?> item) => throw new NotSupportedException();

        public bool Remove(KeyValuePair<string, JsonNode?> item) => throw new NotSupportedException();

        void ICollection<KeyValuePair<string, JsonNode?>>.Clear() => throw new NotSupportedException();
    }
}
