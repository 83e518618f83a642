using System.Diagnostics;
using System.Runtime.CompilerServices;
using Jint;
using Jint.Native;
using Jint.Native.Object;

namespace JsonStringify.Internals;

/// <summary>
/// ECMA-262 SerializeJSONProperty, SerializeJSONObject and SerializeJSONArray: the only place that knows the
/// algorithm, the order of its observable steps, and when user code (toJSON, the replacer) runs. One walker serves
/// one call; it is rented from a pool, so a nested JSON.stringify gets a walker and buffers of its own.
/// </summary>
/// <typeparam name="TOutput">What the walk makes (text, System.Text.Json nodes, tokens for a Utf8JsonWriter): a struct,
/// so that the JIT compiles a walker per output with direct calls to it.</typeparam>
internal sealed partial class Walker<TOutput> : IWalker
    where TOutput : struct, IJsonOutput<TOutput>
{
    // Not readonly: a readonly field of a type parameter would be copied before every call.
    private TOutput _output = TOutput.Create();

    private Engine _engine = null!;
    private JsonSerializer _owner = null!;
    private ValueReader _reader = ValueReader.Public;
    private EngineTypes _types = null!;

    // No replacer function and no property list: a value whose toJSON lookup provably finds nothing and runs no code
    // is opened straight from the loops, without SerializeJSONProperty's steps.
    private bool _pureShapes;
    private JsValue? _replacer;
    private PropertyList? _propertyList;
    private Options.SerializeToJsonDelegate? _hostSerializer;
    private string _gap = string.Empty;

    private enum FrameKind
    {
        Array,
        ShapedObject,
        ListedObject,
        TableObject,
        KeyedObject,
    }

    /// <summary>How deep the cycle stack grew; a walker that grew very deep is not kept by the pool.</summary>
    public int StackCapacity => _frames.Length;

    /// <summary>The output, for the caller to give it the call's destination before the walk, and to read what the call
    /// made (a node output's tree).</summary>
    public ref TOutput Output => ref _output;

    public void Start(
        JsonSerializer owner,
        JsValue? replacer,
        PropertyList? propertyList,
        string gap,
        long maxLength,
        int maxDepth)
    {
        _owner = owner;
        _engine = owner.Engine;
        _reader = owner.Reader;
        _calls.Start(_engine, _reader);
        _shapeCache = owner.RentShapeCache() ?? _ownShapeCache;
        _pureShapes = replacer is null && propertyList is null;
        _types = EngineTypes.Instance;
        _replacer = replacer;
        _propertyList = propertyList;
        _hostSerializer = owner.HostSerializer;
        _gap = gap;
        _maxDepth = _output.LimitDepth(maxDepth);
        _itemsSinceCheck = 0;
        _inPlaceLevels = 0;
        _lengthAtCheck = 0;
        _lengthLimit = maxLength;
        _nextCheckLength = NextCheckLength();
        _output.Start(gap, maxLength);
        RenewAgedArrays();
    }

    public void ReturnShapeCache()
    {
        if (_shapeCache is not null && _shapeCache != _ownShapeCache)
        {
            _owner.ReturnShapeCache(_shapeCache);
            _shapeCache = null;
        }
    }

    /// <summary>Drops every reference the call took, so that a pooled walker pins no engine or destination.</summary>
    public void Reset()
    {
        if (_shapeCache == _ownShapeCache)
        {
            Array.Clear(_ownShapeCache);
        }

        Debug.Assert(_shapeCache is null || _shapeCache == _ownShapeCache, "the serializer's cache went back inside the gate");
        _shapeCache = null;
        DropTableReadAhead();
        _farRowFetch.Stop();
        _tables.Reset();
        Array.Clear(_frames, 0, _framesUsed);
        _framesUsed = 0;

        _deepStack?.Clear();
        _depth = 0;
        _engine = null!;
        _owner = null!;
        _types = null!;
        _reader = ValueReader.Public;
        InvalidatePurity();
        _calls.Reset();
        _replacer = null;
        _propertyList = null;
        for (int i = 0; i < _absentKeys.Length; i++)
        {
            _absentKeys[i].Prototype = null;
        }

        _hostSerializer = null;
        _gap = string.Empty;
        _output.Reset();
    }

    /// <summary>SerializeJSONProperty for the root; false when the value has no JSON form.</summary>
    public bool SerializeRoot(JsValue value)
    {
        // The walk does not recurse, but a toJSON or replacer that calls JSON.stringify again does, through the engine.
        if (!RuntimeHelpers.TryEnsureSufficientExecutionStack())
        {
            Throw.StackOverflow(_engine, _reader);
        }

        // The wrapper {"": value} is observable only as the replacer's this, so it exists only for a replacer.
        JsValue holder = JsValue.Undefined;
        if (_replacer is not null)
        {
            var wrapper = new JsObject(_engine);
            wrapper.CreateDataProperty(JsString.Empty, value);
            holder = wrapper;
        }

        value = Prepare(value, holder, JsString.Empty, 0);
        if (!IsSerializable(value))
        {
            return false;
        }

        WriteValue(value);
        Run();
        CheckLength();
        _output.Complete();
        return true;
    }

    // The plain name beside a quoted one, for an output that needs it (see IJsonOutput.WriteQuotedPropertyName). The
    // test is a constant of the output type, so for text, which needs none, no name is made and nothing is tested.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static string? PlainName(JsValue key) => TOutput.NeedsPlainNames ? key.ToString() : null;

    // PlainName of keys[i], with the element read (and its index checked) only for an output that needs it.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static string? PlainName(JsValue[] keys, int i) => TOutput.NeedsPlainNames ? keys[i].ToString() : null;

    // Where the walk is in one open container. Frames are reused in place: Start resets one for a new container, and
    // each kind sets the fields it reads. The class remembered for children stays valid from one container to the next.
    private struct Frame
    {
        public ObjectInstance? Container;

        public FrameKind Kind;

        // Elements of an array, or keys of an object.
        public ulong Count;

        public ulong Index;

        // No property written yet (objects).
        public bool Empty;

        public object? Shape;

        public ShapeLayout? Layout;

        // The class of the last plain object read from this container, and its layout.
        public object? ChildShape;

        public ShapeLayout? ChildLayout;

        public List<JsValue>? Keys;

        // Where a table object's properties start on the walker's TableStack.
        public int TableStart;

        public int[]? Slots;

        public bool[]? AbsentKeys;

        public int Epoch;

        public void Start(FrameKind kind, ulong count)
        {
            Kind = kind;
            Count = count;
            Index = 0;
            Empty = true;
        }

        // For an object or an array pushed after its first properties or elements were written as it was opened (one
        // that was not a leaf): the walk goes on from the next one.
        public void Resume(ulong written)
        {
            Debug.Assert(written < Count, "a property or an element is left to walk");
            Index = written;
            Empty = written == 0;
        }
    }
}
