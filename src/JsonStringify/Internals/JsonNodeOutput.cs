using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Text.Json.Nodes;
using Jint.Native;

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

    // No text: the length limit only applies through OpenArray's check of an array's shortest text (see docs/limits.md).
    public long Length => 0;

    public bool IsOverLimit => false;

    /// <summary>The node the last successful call built (null for JSON null).</summary>
    public JsonNode? Result => _builder.Root;

    public static JsonNodeOutput Create() => new(new Builder());

    public void Start(object? destination, string gap, long maxLength)
    {
        Debug.Assert(destination is null && gap.Length == 0, "nodes have no destination and no layout");
        _builder.Start();
    }

    public void Complete() => Debug.Assert(_builder.Depth == 0, "every container was closed");

    public void Reset() => _builder.Reset();

    public void WriteNull() => _builder.Add(null);

    public void WriteBoolean(bool value) => _builder.Add(JsonValue.Create(value));

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

    public void WriteRaw(string text) => _builder.Add(JsonNode.Parse(text));

    public void StartObject() => _builder.StartObject();

    public void WritePropertyName(string name, bool first) => _builder.Name = name;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteQuotedPropertyName(string quotedWithColon, JsValue key, bool first) => _builder.Name = key.ToString();

    public void EndObject(bool empty) => _builder.End();

    public void StartArray() => _builder.StartArray();

    public void WriteSeparator(bool first)
    {
    }

    public void EndArray(bool empty) => _builder.End();

    public void WriteEmptyArray() => _builder.Add(new JsonArray());

    /// <summary>
    /// The tree being built. A container joins its parent when it closes, not when it opens: a node checks, as it joins
    /// a parent, that it is not among the parent's ancestors, so while every open container is still detached that
    /// check is one step, and a tree of any depth builds in linear time.
    /// </summary>
    private sealed class Builder
    {
        // The open containers, outermost first, and the name each has in its parent (null in an array or at the root).
        private JsonNode[] _open = new JsonNode[16];
        private string?[] _names = new string?[16];

        // How many entries of the stacks the call used, for Reset to clear.
        private int _used;

        // The innermost open container: exactly one is set while a container is open.
        private JsonObject? _object;
        private JsonArray? _array;

        public int Depth { get; private set; }

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
            Array.Clear(_open, 0, _used);
            Array.Clear(_names, 0, _used);
            _used = 0;
            _object = null;
            _array = null;
            Root = null;
            Name = null;
            Depth = 0;
        }

        public void Add(JsonNode? node)
        {
            if (_array is not null)
            {
                _array.Add(node);
            }
            else if (_object is not null)
            {
                // The walk does not repeat a key in an object; if a host object did, the last value would stay, as
                // JSON.parse keeps it.
                Debug.Assert(Name is not null, "a property's name comes before its value");
                if (!_object.TryAdd(Name, node))
                {
                    _object[Name] = node;
                }
            }
            else
            {
                Debug.Assert(Depth == 0, "a value outside every container is the root");
                Root = node;
            }
        }

        public void StartObject()
        {
            var o = new JsonObject();
            Open(o);
            _object = o;
            _array = null;
        }

        public void StartArray()
        {
            var a = new JsonArray();
            Open(a);
            _object = null;
            _array = a;
        }

        // The innermost container is complete: it joins its parent (the new innermost) under its name, or is the root.
        public void End()
        {
            Debug.Assert(Depth > 0, "a container is open");
            Depth--;
            JsonNode closed = _open[Depth];
            Name = _names[Depth];
            JsonNode? parent = Depth == 0 ? null : _open[Depth - 1];
            _object = parent as JsonObject;
            _array = parent as JsonArray;
            Add(closed);
        }

        private void Open(JsonNode container)
        {
            if (Depth == _open.Length)
            {
                Array.Resize(ref _open, Depth * 2);
                Array.Resize(ref _names, Depth * 2);
            }

            _open[Depth] = container;
            _names[Depth] = _object is null ? null : Name;
            Depth++;
            _used = Math.Max(_used, Depth);
        }
    }
}
