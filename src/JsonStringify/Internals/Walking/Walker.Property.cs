using System.Diagnostics;
using System.Runtime.CompilerServices;
using Jint;
using Jint.Native;
using Jint.Native.Object;
using Jint.Runtime;

namespace JsonStringify.Internals;

/// <summary>SerializeJSONProperty: toJSON, the replacer, unboxing, and writing the value it leaves.</summary>
internal sealed partial class Walker<TOutput>
{
    // How toJSON and the replacer are called, and with which argument lists.
    private readonly CallLane _calls = new();

    // SerializeJSONProperty steps 2-4: toJSON, the replacer, then unwrapping of boxed primitives. The key is made
    // only when user code needs it: for array elements it is the index, turned into a string on demand.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private JsValue Prepare(JsValue value, JsValue holder, JsValue? key, ulong index)
    {
        if (_replacer is null)
        {
            if (value.Type != Types.Object && value.Type != Types.BigInt)
            {
                return value;
            }

            if (value is ObjectInstance o && IsFreeOfToJson(o))
            {
                return value;
            }
        }

        return PrepareSlow(value, holder, key, index);
    }

    private JsValue PrepareSlow(JsValue value, JsValue holder, JsValue? key, ulong index)
    {
        // The toJSON lookup, the calls and the unboxing below may all run user code: the memo of clean prototypes is
        // dropped once they are done, before anything can consult it again.
        if (value.Type is Types.Object or Types.BigInt)
        {
            JsValue toJson = GetToJson(value);
            if (toJson.IsCallable())
            {
                key ??= IndexKey.Create(index);
                value = _calls.CallToJson(toJson, value, key);
            }
        }

        if (_replacer is not null)
        {
            key ??= IndexKey.Create(index);
            value = _calls.CallReplacer(_replacer, holder, key, value);
        }

        value = value is ObjectInstance o ? Unbox(o) : value;
        InvalidatePurity();
        return value;
    }

    // GetV(value, "toJSON"): a BigInt primitive reads it from a wrapper, with the primitive as the receiver.
    private JsValue GetToJson(JsValue value)
    {
        if (value is ObjectInstance o)
        {
            return o.Get(JsonConstants.ToJson, o);
        }

        // Object(value) as a call is ToObject; Jint's [[Construct]] of Object does not wrap BigInts.
        var wrapper = (ObjectInstance)_calls.Call(_engine.Intrinsics.Object, JsValue.Undefined, [value]);
        return wrapper.Get(JsonConstants.ToJson, value);
    }

    // SerializeJSONProperty step 4: ToNumber and ToString are observable (valueOf, toString); the others are not.
    private static JsValue Unbox(ObjectInstance o)
    {
        if (o is not IJsPrimitive boxed)
        {
            return o;
        }

        return boxed.Type switch
        {
            Types.Number => JsNumber.Create(TypeConverter.ToNumber(o)),
            Types.String => new JsString(TypeConverter.ToString(o)),
            Types.Boolean or Types.BigInt => boxed.PrimitiveValue,
            _ => o,
        };
    }

    private static bool IsSerializable(JsValue value) => value.Type switch
    {
        Types.Undefined or Types.Symbol => false,
        Types.Object => value is JsObject or JsArray || !value.IsCallable(),
        _ => true,
    };

    // SerializeJSONProperty steps 5-11, for a value that IsSerializable: a primitive is written at once, an object
    // is opened, and Run writes its contents.
    private void WriteValue(JsValue value)
    {
        Types type = value.Type;
        if (IsJsonPrimitive(type))
        {
            WritePrimitive(value, type);
        }
        else if (type == Types.BigInt)
        {
            Throw.BigIntNotSerializable(_engine);
        }
        else
        {
            Open((ObjectInstance)value);
        }
    }

    // Null, booleans, strings and numbers: values that SerializeJSONProperty writes as they are when there is no
    // replacer function (toJSON and unboxing only concern objects and BigInts).
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool IsJsonPrimitive(Types type) => type is Types.Null or Types.Boolean or Types.String or Types.Number;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void WritePrimitive(JsValue value, Types type)
    {
        if (type == Types.String)
        {
            _output.WriteString(value.ToString());
        }
        else if (type == Types.Number)
        {
            _output.WriteNumber(value.AsNumber());
        }
        else
        {
            _output.WriteLiteral(LiteralOf(value, type));
        }
    }

    // null, true or false, found without a branch: in a document of flags and optional fields which of them comes next
    // is as good as random, and a branch on it would be mispredicted often. Jint makes no booleans but JsBoolean.True
    // and JsBoolean.False (its constructor is private; DifferentialTests checks it on every release claimed), so true
    // is the one reference; and Types is a set of flags, in which type >> 2 is 1 for Boolean (4) and 0 for Null (2).
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static JsonLiteral LiteralOf(JsValue value, Types type)
    {
        Debug.Assert(type is Types.Null or Types.Boolean, "a literal");
        Debug.Assert(type == Types.Null || ReferenceEquals(value, JsBoolean.True) == value.AsBoolean(), "one true");
        int isTrue = ReferenceEquals(value, JsBoolean.True) ? 1 : 0;
        int booleanMask = -((int)type >> 2);

        // False is 2 and True one less (JsonLiteral); the mask makes a null Null, 0.
        return (JsonLiteral)(((int)JsonLiteral.False - isTrue) & booleanMask);
    }
}
