using Jint.Native;

namespace JsonStringify.Internals;

/// <summary>Limits and tokens from ECMA-262 JSON.stringify and from .NET.</summary>
internal static class JsonConstants
{
    // ECMA-262 JSON.stringify step 6-7: a numeric or string space is cut to 10.
    public const int MaxGapLength = 10;

    // The longest string .NET can allocate (string.MaxLength is internal: 0x3FFFFFDF on 64-bit).
    public const int MaxStringLength = 0x3FFFFFDF;

    // The longest JavaScript string: V8's String::kMaxLength on 64-bit, 2**29 - 24. Jint 4.16.1 and later refuse a
    // longer one with "RangeError: Invalid string length" (their JsString.MaxLength, internal, has this value); Jint
    // 4.16.0 has no limit of its own but the .NET one.
    public const int MaxJsStringLength = (1 << 29) - 24;

    // Above this nesting depth the cycle check switches from a linear scan of the stack to a hash set.
    public const int LinearCycleCheckDepth = 32;

    // Entries in a walker's cache of hidden-class layouts: pairs, a power of two of them. Documents of many key sets
    // meet hundreds of classes per call; a miss costs only a layout lookup. The walker keeps its own copy for nested
    // calls, cleared after each.
    public const int ShapeCacheSize = 256;

    // With a replacer property list, a walker remembers which listed keys the chains of this many prototypes lack.
    public const int AbsentKeysEntries = 4;

    // After an object of a hidden class turned out not to be a leaf, how many more of that class are opened as frames
    // at once (see Walker.OpenShapedValue); then one is tried again.
    public const int LeafTriesSkipped = 16;

    // A walker keeps the array under its stack of table properties (objects with more than 64 properties, deleted ones,
    // or built by assignment) from call to call up to this many entries (a power of two); a walk that needs more rents
    // one from the shared ArrayPool and gives it back when it ends.
    public const int MaxRetainedTableCapacity = 4096;

    // The least size of an object that .NET puts on the large object heap (the default of GCLOHThreshold, which can
    // only be raised): a smaller array is made in generation 0.
    public const int LargeObjectBytes = 85_000;

    // Worst case of one UTF-16 char after QuoteJSONString: "\uXXXX".
    public const int MaxEscapedCharLength = 6;

    // Room for any double laid out by Number::toString: sign, 17 digits, point, "e-324" and slack.
    public const int NumberBufferLength = 64;

    // The engine's constraints are checked after this many values, or this much output, whichever comes first.
    public const int ConstraintCheckItems = 1024;
    public const int ConstraintCheckChars = 64 * 1024;

    // The output length from which the walk treats the document as larger than the processor's caches.
    public const int LargeOutputChars = 128 * 1024;

    // The default MaxDepth: two million nested containers, beyond what V8 14.6 manages with a replacer (2,711) and
    // what Jint 4.18.0 survives (about 100,000), yet bounded, so that a toJSON that nests forever ends in a RangeError.
    public const int DefaultMaxDepth = 2_000_000;

    // The property SerializeJSONProperty looks up on objects and BigInts.
    public const string ToJsonName = "toJSON";

    public static readonly JsString ToJson = new(ToJsonName);

    public const string InvalidStringLength = "Invalid string length";
    public const string StackOverflow = "Maximum call stack size exceeded";
    public const string BigInt = "Do not know how to serialize a BigInt";
    public const string RevokedProxyIsArray = "Cannot perform 'IsArray' on a proxy that has been revoked";
}
