using System.Runtime.ExceptionServices;
using Acornima.Ast;
using Jint;
using Jint.Native;
using Jint.Runtime;
using Jint.Runtime.Interop;
using JsonStringify.Internals;

namespace JsonStringify;

/// <remarks>
/// Every overload comes in through <see cref="Run"/>, which makes a call one unit of work for the engine: one thread at
/// a time (<see cref="EngineGate"/>), and the engine's constraints (timeout, memory, statements) counted from the start
/// of a host call, whatever the walk calls on the way: toJSON, replacers, getters, proxy traps.
/// </remarks>
public sealed partial class JsonSerializer
{
    // A script function that calls its argument. A call made through the public Engine.Call while no script runs is a
    // host call of its own: Jint 4.18.0 (Engine.ExecuteWithConstraints) resets every constraint at its start and at its
    // end unless an execution context above the global one is active, and only script functions push one. Run inside
    // this function, a walk's toJSON and replacer calls are nested calls, and the constraints count from the start of
    // the whole host call. Parsed once per process, evaluated once per serializer that needs it.
    private static readonly Prepared<Script> s_hostCallScript =
        Engine.PrepareScript("(function stringify(walk) { return walk(); })", "JsonStringify");

    private readonly EngineGate _gate;

    private JsValue? _hostCallFunction;
    private JsValue[]? _hostCallArguments;
    private PendingWalk _pending;

    // The one entry of every overload: the gate, then the walk as one unit of work for the engine's constraints.
    private bool Run(IWalker walker, JsValue value, JsValue? replacer, JsValue? space, long maxLength)
    {
        if (!_gate.Enter())
        {
            // Nested in a call this thread is making on this engine: inside that call's unit of work already.
            try
            {
                return Walk(walker, value, replacer, space, maxLength);
            }
            finally
            {
                walker.ReturnShapeCache();
            }
        }

        try
        {
            // A call from a script (the installed JSON.stringify) or from a host function that a script or the host
            // called is part of that work; one on an idle engine is a host call, and its budget starts now. Where the
            // reader can tell the two apart, it resets the constraints itself, and its calls are nested ones; otherwise
            // an outermost call that may run user code runs inside the host-call function.
            if (Reader.IsEngineIdle(Engine) is { } idle)
            {
                if (idle)
                {
                    Engine.Constraints.Reset();
                }

                return Walk(walker, value, replacer, space, maxLength);
            }

            // Only objects and BigInts (toJSON), replacers and proxies (IsArray), and a Number or String object as
            // the space (its valueOf or toString) make the call run code in the engine.
            return value.Type is Types.Object or Types.BigInt
                || replacer is not null && replacer.Type == Types.Object
                || space is not null && space.Type == Types.Object
                ? WalkAsOneHostCall(walker, value, replacer, space, maxLength)
                : Walk(walker, value, replacer, space, maxLength);
        }
        finally
        {
            walker.ReturnShapeCache();
            _gate.Exit();
        }
    }

    // The walk inside one public Engine.Call of the host-call function, which resets the constraints if the engine is
    // idle, and makes every call the walk makes a nested one. Whatever the walk throws is carried out of the engine
    // and rethrown as it is, so that no host setting (such as catching CLR exceptions) can turn it into a script error.
    private bool WalkAsOneHostCall(IWalker walker, JsValue value, JsValue? replacer, JsValue? space, long maxLength)
    {
        if (_hostCallFunction is null)
        {
            _hostCallFunction = Engine.Evaluate(s_hostCallScript);
            _hostCallArguments = [new ClrFunction(Engine, "walk", (_, _) => RunPending())];
        }

        _pending = new PendingWalk(walker, value, replacer, space, maxLength);
        try
        {
            Engine.Call(_hostCallFunction, JsValue.Undefined, _hostCallArguments!);
            _pending.Failure?.Throw();
            return _pending.Written;
        }
        finally
        {
            _pending = default;
        }
    }

    private JsValue RunPending()
    {
        try
        {
            _pending.Written = Walk(_pending.Walker!, _pending.Value!, _pending.Replacer, _pending.Space, _pending.MaxLength);
        }
        catch (Exception e)
        {
            _pending.Failure = ExceptionDispatchInfo.Capture(e);
        }

        return JsValue.Undefined;
    }

    // The arguments of the walk that the host-call function runs, and its outcome.
    private struct PendingWalk(IWalker walker, JsValue value, JsValue? replacer, JsValue? space, long maxLength)
    {
        public readonly IWalker? Walker = walker;
        public readonly JsValue? Value = value;
        public readonly JsValue? Replacer = replacer;
        public readonly JsValue? Space = space;
        public readonly long MaxLength = maxLength;
        public bool Written;
        public ExceptionDispatchInfo? Failure;
    }
}
