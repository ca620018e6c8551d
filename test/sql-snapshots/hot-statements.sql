WITH
  one AS (SELECT 1),
  coupon AS (UPDATE discounts SET used_count = used_count + 1
  WHERE id = $6 AND (uses_limit IS NULL OR used_count < uses_limit)
  RETURNING id),
  customer AS (INSERT INTO customers (store_id, email, name, mobile_number, payment_number)
  SELECT $1, $2, $3, $4, $5
  FROM coupon
  ON CONFLICT (store_id, email) DO UPDATE SET name = EXCLUDED.name, mobile_number = EXCLUDED.mobile_number, payment_number = COALESCE(EXCLUDED.payment_number, customers.payment_number), updated_at = now()
  RETURNING id),
  inserted AS (INSERT INTO "orders" AS t ("store_id", "order_number", "pay_token_hash", "product_id", "plan_id", "customer_id", "status", "currency", "original_amount", "discount_amount", "amount", "discount_id", "coupon_code", "coupon_single_use", "affiliate_id", "customer_name", "customer_mobile_number", "customer_payment_number", "return_url", "cancel_url", "tracking")
  SELECT $7, $8, $9, $10, $11, customer.id, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26
  FROM customer
  RETURNING "t"."id", "t"."order_number")
  SELECT 1, "inserted"."id", "inserted"."order_number"
  FROM one
  LEFT JOIN inserted ON true;

WITH
  one AS (SELECT 1),
  customer AS (INSERT INTO customers (store_id, email, name, mobile_number, payment_number)
  SELECT $1, $2, $3, $4, $5
  FROM one
  ON CONFLICT (store_id, email) DO UPDATE SET name = EXCLUDED.name, mobile_number = EXCLUDED.mobile_number, payment_number = COALESCE(EXCLUDED.payment_number, customers.payment_number), updated_at = now()
  RETURNING id),
  inserted AS (INSERT INTO "orders" AS t ("store_id", "order_number", "pay_token_hash", "product_id", "plan_id", "customer_id", "status", "currency", "original_amount", "discount_amount", "amount", "discount_id", "coupon_code", "affiliate_id", "customer_name", "customer_mobile_number", "customer_payment_number", "return_url", "cancel_url", "tracking")
  SELECT $6, $7, $8, $9, $10, customer.id, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24
  FROM customer
  RETURNING "t"."id", "t"."order_number")
  SELECT 1, "inserted"."id", "inserted"."order_number"
  FROM one
  LEFT JOIN inserted ON true;
