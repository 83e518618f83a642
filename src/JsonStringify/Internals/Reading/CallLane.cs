using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Jint;
using Jint.Native;

namespace JsonStringify.Internals;

/// <summary>
/// How one walk calls toJSON and the replacer: through the engine's internal call where the reader may use it, as
/// Jint's own serializer calls, or else through the public <see cref="Engine.Call(JsValue, JsValue, JsValue[])"/>
/// (which the public entry runs inside one host call, so that the calls nest: see JsonSerializer.Entry.cs). The
/// argument lists are refilled for each call where the callee is of a class known to copy what it keeps, and made anew
/// for each call otherwise (a host function, for one, is handed the list itself). A walker owns one lane, so a nested
/// JSON.stringify, which has a walker of its own, never refills these lists.
/// </summary>
internal sealed class CallLane
{
    private readonly JsValue[] _oneArgument = new JsValue[1];

    private readonly JsValue[] _twoArguments = new JsValue[2];

    private Engine _engine = null!;
    private ValueReader _reader = ValueReader.Public;

    // Decided at the first toJSON or replacer call of a walk: the argument probe runs at the first such call a process
    // makes, not at a walk that calls nothing.
    private bool _decided;
    private bool _internal;
    private bool _reuseLists;

    public void Start(Engine engine, ValueReader reader)
    {
        _engine = engine;
        _reader = reader;
        _decided = false;
    }

    /// <summary>Calls toJSON with the value as this and the key as its one argument.</summary>
    public JsValue CallToJson(JsValue toJson, JsValue value, JsValue key)
    {
        Decide();
        JsValue[] arguments = _reuseLists && JintInternals.CopiesArguments(toJson) ? _oneArgument : new JsValue[1];
        Store(arguments, 0, key);
        return Call(toJson, value, arguments);
    }

    /// <summary>Calls the replacer with the holder as this, and the key and the value as its arguments.</summary>
    public JsValue CallReplacer(JsValue replacer, JsValue holder, JsValue key, JsValue value)
    {
        Decide();
        JsValue[] arguments = _reuseLists && JintInternals.CopiesArguments(replacer) ? _twoArguments : new JsValue[2];
        Store(arguments, 0, key);
        Store(arguments, 1, value);
        return Call(replacer, holder, arguments);
    }

    /// <summary>Calls <paramref name="callable"/> with the given arguments (a list of the caller's own).</summary>
    public JsValue Call(JsValue callable, JsValue thisObject, JsValue[] arguments)
    {
        Decide();
        return _internal ? JintInternals.Call(_engine, callable, thisObject, arguments) : _engine.Call(callable, thisObject, arguments);
    }

    /// <summary>Drops every reference the walk took, so that a pooled walker pins no values or engine.</summary>
    public void Reset()
    {
        Store(_oneArgument, 0, JsValue.Undefined);
        Store(_twoArguments, 0, JsValue.Undefined);
        Store(_twoArguments, 1, JsValue.Undefined);
        _engine = null!;
        _reader = ValueReader.Public;
    }

    // Stores a value into an argument list, which is exactly JsValue[] (never an array of a derived type), without the
    // covariant store check that an indexer assignment makes. That check looks the value's type up in the runtime's
    // cast cache on every store, and a miss goes to a helper whose first call in a process, when it comes in the middle
    // of the calls (a list emptied at the end of each one), stops the runtime's background compiler for 100 ms.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void Store(JsValue[] list, int index, JsValue value)
    {
        Debug.Assert(list.GetType() == typeof(JsValue[]) && (uint)index < (uint)list.Length, "an argument list, and one of its slots");
        Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(list), index) = value;
    }

    private void Decide()
    {
        if (!_decided)
        {
            _internal = _reader.CallsInternally;
            _reuseLists = _reader.MayReuseArgumentLists;
            _decided = true;
        }
    }
}
